/**
 * The JSON call tolerances (issue 18): `key-alias` (kind 3: other key names, string-encoded arguments)
 * and `bare-call` (kind 6: a whole answer that is only JSON call objects, the family's markers missing).
 * Each case runs one-shot, code point by code point, at random cuts and at every two-push cut (the
 * tester); the completions are the real ones of each evidence link. A repair is reported only for a
 * call that names an accepted tool and validates; otherwise the text stays content (with its ordinary
 * error where the markup says a call was meant).
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { listFormats } from "../../src/formats/index.js";
import { compileFormat } from "../../src/parse/compile-format.js";
import { parseCompletion } from "../../src/parse/index.js";
import type { FormatDescription, Tolerance } from "../../src/parse/language.js";
import { contentBeforeEnd } from "../helpers/run-parse.js";
import { tester } from "../helpers/tester.js";

const tool = (name: string, properties: Record<string, unknown>, required: string[] = []) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, required } },
});
const HA = [tool("ha_call_service", { action: { type: "string" }, device_id: { type: "string" } })];
const DB = [tool("get_db_config", { param: { type: "string" } }, ["param"])];
const BASH = [tool("Bash", { command: { type: "string" }, description: { type: "string" } }, ["command"])];
const SEARX = [tool("searxng_search", { query: { type: "string" }, language: { type: "string" }, max_results: { type: "integer" } }, ["query"])];

describe("key-alias", () => {
  it("hermes: `args` for `arguments` (ollama#18357) is the call, and the repair names the key as written", () => {
    tester("hermes")
      .tools(HA)
      .test('<tool_call>\n{"name": "ha_call_service", "args": {"action": "turn_off", "device_id": "light.salon"}}\n</tool_call>')
      .errors([{ type: "repaired", repair: "key-alias", name: "ha_call_service", call: 0, text: '"args"', message: 'key "args" read as "arguments"' }])
      .expect({ content: null, tool_calls: [{ name: "ha_call_service", arguments: { action: "turn_off", device_id: "light.salon" } }] });
  });

  it("hermes: arguments as a JSON string holding the object (Granite 4, vllm#54964)", () => {
    tester("hermes")
      .tools(DB)
      .test('<tool_call>{"name": "get_db_config", "arguments": "{\\n  \\"param\\": \\"max_connections\\"\\n}"}</tool_call>')
      .errors([{ type: "repaired", repair: "key-alias", call: 0, text: '"{\\n  \\"param\\": \\"max_connections\\"\\n}"' }])
      .expect({ content: null, tool_calls: [{ name: "get_db_config", arguments: { param: "max_connections" }, arguments_text: '{\n  "param": "max_connections"\n}' }] });
  });

  it("a repaired call that does not validate is no call: its text stays, with its ordinary error and no repair", () => {
    const raw = '<tool_call>\n{"name": "get_db_config", "args": {"other": 1}}\n</tool_call>';
    tester("hermes").tools(DB).test(raw).errors([{ type: "invalid_arguments", name: "get_db_config" }]).expect({ content: raw });
  });

  it("an alias the family's models are not seen to write stays an error: `parameters` in hermes, `args` in mistral", () => {
    const hermes = '<tool_call>\n{"name": "ha_call_service", "parameters": {"action": "x"}}\n</tool_call>';
    tester("hermes").tools(HA).test(hermes).errors([{ type: "malformed", name: "ha_call_service" }]).expect({ content: hermes });
    const mistral = '[TOOL_CALLS][{"name": "ha_call_service", "args": {"action": "x"}}]';
    const r = parseCompletion("mistral", mistral, { tools: HA });
    expect(r.message.tool_calls).toBeUndefined();
    expect(r.errors.map((e) => e.type)).toEqual(["malformed"]);
  });

  it("string-encoded arguments in a family without the tolerance stay a string: invalid_arguments, text kept", () => {
    const raw = '<TOOLCALL>[{"name": "get_db_config", "arguments": "{\\"param\\": \\"x\\"}"}]</TOOLCALL>';
    tester("nemotron-v2").tools(DB).test(raw).errors([{ type: "invalid_arguments", name: "get_db_config" }]).expect({ content: raw });
  });

  it("the family's own keys are no repair: `parameters` where the template writes it (llama3-json)", () => {
    tester("llama3-json")
      .tools(HA)
      .test('{"name": "ha_call_service", "parameters": {"action": "on"}}')
      .expect({ content: null, tool_calls: [{ name: "ha_call_service", arguments: { action: "on" } }] });
  });
});

describe("bare-call", () => {
  const bash = '{\n  "name": "Bash",\n  "arguments": {\n    "command": "ls /tmp",\n    "description": "List files in /tmp directory"\n  }\n}';

  it("hermes: a whole answer that is one call object naming a declared tool (claude-code-local#43), under tool_choice auto", () => {
    tester("hermes")
      .tools(BASH)
      .test(bash)
      .errors([{ type: "repaired", repair: "bare-call", name: "Bash", call: 0, text: bash }])
      .expect({ content: null, tool_calls: [{ name: "Bash", arguments: { command: "ls /tmp", description: "List files in /tmp directory" } }] });
  });

  it('and under tool_choice "required" or a named tool; whitespace and reasoning around it are no other text', () => {
    const call = '{"name": "Bash", "arguments": {"command": "pwd"}}';
    const want = { content: null, tool_calls: [{ name: "Bash", arguments: { command: "pwd" } }] };
    tester("hermes").tools(BASH).toolChoice("required").test(`\n${call}\n`).errors([{ type: "repaired", repair: "bare-call" }]).expect(want);
    tester("hermes").tools(BASH).toolChoice({ type: "function", function: { name: "Bash" } }).test(call).errors([{ type: "repaired", repair: "bare-call" }]).expect(want);
    tester("hermes")
      .tools(BASH)
      .test(`<think>\nList it.\n</think>\n\n${call}`)
      .errors([{ type: "repaired", repair: "bare-call" }])
      .expect({ ...want, reasoning_content: "\nList it.\n" });
  });

  it("qwen3-coder: a bare list of calls, and a bare object keyed tool_name / tool_input (1Cat-vLLM#26)", () => {
    tester("qwen3-coder")
      .tools(SEARX)
      .test('[{"name":"searxng_search","arguments":{"query":"2026年5月6日 今日新闻"}}]')
      .errors([{ type: "repaired", repair: "bare-call", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "searxng_search", arguments: { query: "2026年5月6日 今日新闻" } }] });
    tester("qwen3-coder")
      .tools(SEARX)
      .test('{\n  "tool_name": "searxng_search",\n  "tool_input": {\n    "query": "新闻",\n    "language": "zh",\n    "max_results": 8\n  }\n}')
      .errors([
        { type: "repaired", repair: "key-alias", text: '"tool_name"' },
        { type: "repaired", repair: "key-alias", text: '"tool_input"' },
        { type: "repaired", repair: "bare-call" },
      ])
      .expect({ content: null, tool_calls: [{ name: "searxng_search", arguments: { query: "新闻", language: "zh", max_results: 8 } }] });
  });

  it("not a bare call, kept as content without an error: other text, an undeclared tool, no tools, tool_choice none, not a call", () => {
    const call = '{"name": "Bash", "arguments": {"command": "ls"}}';
    tester("hermes").tools(BASH).test(`${call} and then some`).expect({ content: `${call} and then some` });
    tester("hermes").tools(BASH).test(`Sure: ${call}`).expect({ content: `Sure: ${call}` });
    // thClaws#50: qwen2.5-coder "calls" a tool nobody declared; it stays what it is, text.
    tester("hermes").tools(BASH).test('{ "name": "Skill", "arguments": { "name": "none" } }').expect({ content: '{ "name": "Skill", "arguments": { "name": "none" } }' });
    tester("hermes").test(call).expect({ content: call });
    tester("hermes").tools(BASH).toolChoice("none").test(call).expect({ content: call });
    tester("hermes").tools(BASH).test('{"answer": 42, "name": "Bash"}').expect({ content: '{"answer": 42, "name": "Bash"}' });
    tester("hermes").tools(BASH).test('{"name": "Bash", "arguments": {"command": "ls"}').expect({ content: '{"name": "Bash", "arguments": {"command": "ls"}' });
  });

  it("a bare object naming a declared tool with arguments that do not validate: content, with invalid_arguments", () => {
    const raw = '{"name": "Bash", "arguments": {"cmd": "ls"}}';
    tester("hermes").tools(BASH).test(raw).errors([{ type: "invalid_arguments", name: "Bash" }]).expect({ content: raw });
  });

  it("streaming holds only text that starts like a call object, and only while it may still be one", () => {
    const held = (text: string, tools: unknown[] | null = BASH) => contentBeforeEnd("hermes", text, tools);
    expect(held("Hello there, this is prose")).toBe("Hello there, this is prose");
    expect(held('{"name": "Bash", "arguments": {"command": "ls"}}')).toBe("");
    expect(held('{"answer": "a long JSON answer')).toBe('{"answer": "a long JSON answer');
    expect(held('{"name": "Other", "arguments": {')).toBe('{"name": "Other", "arguments": {');
    expect(held('{"name": "Bash", "arguments": {"command": "ls"}} more')).toBe('{"name": "Bash", "arguments": {"command": "ls"}} more');
    expect(held('{"name": "Bash"', null)).toBe('{"name": "Bash"');
  });
});

describe("the JSON tolerances as data", () => {
  const family = (id: string) => listFormats().find((f) => f.id === id)!;
  const withTolerance = (id: string, t: unknown) => () => compileFormat({ ...family(id), id: "probe", tolerate: [t as Tolerance] } as FormatDescription);
  const evidence = "https://github.com/ollama/ollama/issues/18357";

  it("are checked when a description is compiled, naming what is wrong", () => {
    expect(withTolerance("hermes", { kind: "key-alias", evidence })).toThrow(/names no alias/);
    expect(withTolerance("hermes", { kind: "key-alias", argsKeys: [""], evidence })).toThrow(/"argsKeys" must be non-empty key names/);
    expect(withTolerance("hermes", { kind: "key-alias", argsAsString: "yes", evidence })).toThrow(/"argsAsString" must be a boolean/);
    expect(withTolerance("qwen3-coder", { kind: "key-alias", argsKeys: ["args"], evidence, extra: 1 })).toThrow(/unknown key "extra"/);
    expect(withTolerance("gemma4", { kind: "key-alias", argsKeys: ["args"], evidence })).toThrow(/writes no JSON call objects/);
    expect(withTolerance("xlam", { kind: "bare-call", payload: { kind: "literal-calls", dialect: "python" }, evidence })).toThrow(ChatwireError);
    // llama3-json reads a `{` at the start itself: a bare call of its own starts only at `[`.
    expect(compileFormat({ ...family("llama3-json"), id: "probe", tolerate: [{ kind: "bare-call", evidence }] } as FormatDescription).tolerances.bareCall?.starts).toEqual(["["]);
    expect(withTolerance("harmony", { kind: "bare-call", evidence })).toThrow(ChatwireError);
  });

  it("a caller's description without them reads the deviations as errors or text, as before", () => {
    const base = family("hermes");
    const { tolerate: _t, ...rest } = base;
    const plain = rest as typeof base;
    const r = parseCompletion(plain, '{"name": "Bash", "arguments": {"command": "ls"}}', { tools: BASH });
    expect(r.message).toEqual({ role: "assistant", content: '{"name": "Bash", "arguments": {"command": "ls"}}' });
    expect(parseCompletion(plain, '<tool_call>{"name": "Bash", "args": {"command": "ls"}}</tool_call>', { tools: BASH }).errors[0]?.type).toBe("malformed");
  });
});
