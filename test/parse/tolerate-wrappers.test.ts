/**
 * The tolerances of JSON calls written outside the family's markers (issue 18): a `fence` that may
 * open `anywhere`, `wrapper-tag` (tags the format does not have around exactly the calls),
 * `wrapper-key` (`{"tool_calls": [...]}`) and key-alias `envelopeKeys` (JSON-RPC's `jsonrpc`). Each
 * case runs one-shot, code point by code point, at random cuts and at every two-push cut (the tester);
 * the completions are the real ones of each evidence link. Text that turns out to be no call stays
 * content without an error, and streaming holds it only while it may still become a call.
 */
import { describe, expect, it } from "vitest";
import { listFormats } from "../../src/formats/index.js";
import { compileFormat } from "../../src/parse/compile-format.js";
import type { FormatDescription, Tolerance } from "../../src/parse/language.js";
import { contentBeforeEnd } from "../helpers/run-parse.js";
import { tester } from "../helpers/tester.js";
import type { ExpectedIssue } from "../helpers/expect-message.js";

const tool = (name: string, properties: Record<string, unknown>, required: string[] = []) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, required } },
});
const WEATHER = [tool("get_current_weather", { location: { type: "string" }, unit: { type: "string" } }, ["location"])];
const VIEW = [tool("file_view", { path: { type: "string" }, view_range: { type: "array", items: { type: "integer" } } }, ["path"])];
const EVAL = [tool("eval", { expression: { type: "string" } }, ["expression"])];
const boston = { location: "Boston, MA", unit: "fahrenheit" };
const call = '{"name": "get_current_weather", "arguments": {"location": "Boston, MA", "unit": "fahrenheit"}}';

describe("fence anywhere", () => {
  it("hermes: a ```xml fence after a sentence holding exactly a call (mlx-omni-server#4)", () => {
    tester("hermes")
      .tools(WEATHER)
      .test(`Let's check the current weather in Boston.\n\n\`\`\`xml\n${call}\n\`\`\``)
      .errors([{ type: "repaired", repair: "fence", name: "get_current_weather", call: 0, text: "```xml" }])
      .expect({ content: "Let's check the current weather in Boston.\n\n", tool_calls: [{ name: "get_current_weather", arguments: boston }] });
  });

  it("a fenced body that is not only calls is a code block: content, no error", () => {
    for (const body of ['<note to="a">hi</note>', '{"answer": 1}', `${call}\nand more`, '{"name": "other_tool", "arguments": {}}']) {
      const text = `Here:\n\`\`\`xml\n${body}\n\`\`\`\nDone.`;
      tester("hermes").tools(WEATHER).test(text).expect({ content: text });
    }
    // No tools declared: not a call either.
    tester("hermes").test(`\`\`\`xml\n${call}\n\`\`\``).expect({ content: `\`\`\`xml\n${call}\n\`\`\`` });
  });

  it("streaming holds a fenced body only while it may still be a call", () => {
    const held = (text: string) => contentBeforeEnd("hermes", text, WEATHER);
    expect(held("Text.\n```xml\n<note>")).toBe("Text.\n```xml\n<note>");
    expect(held('Text.\n```xml\n{"answer": "long')).toBe('Text.\n```xml\n{"answer": "long');
    expect(held(`Text.\n\`\`\`xml\n${call}`)).toBe("Text.\n");
  });
});

describe("wrapper-tag", () => {
  it("hermes: <response><tools> around the call object (mlx-omni-server#4)", () => {
    const text = `<response>\n  <tools>\n    ${call}\n  </tools>\n</response>`;
    tester("hermes")
      .tools(WEATHER)
      .test(text)
      .errors([{ type: "repaired", repair: "wrapper-tag", name: "get_current_weather", call: 0, text: "<response><tools></tools></response>" }])
      .expect({ content: null, tool_calls: [{ name: "get_current_weather", arguments: boston }] });
  });

  it("hermes: <function_call> in a ```xml fence (mlx-omni-server#4), and after a sentence", () => {
    const wrapped = `\`\`\`xml\n<function_call>\n    ${call}\n</function_call>\n\`\`\``;
    const errors: ExpectedIssue[] = [
      { type: "repaired", repair: "fence", text: "```xml", call: 0 },
      { type: "repaired", repair: "wrapper-tag", text: "<function_call></function_call>", call: 0 },
      { type: "repaired", repair: "fence", text: "```", call: 0 },
    ];
    tester("hermes").tools(WEATHER).test(wrapped).errors(errors).expect({ content: null, tool_calls: [{ name: "get_current_weather", arguments: boston }] });
    tester("hermes").tools(WEATHER).test(`Checking.\n<function_call>${call}</function_call>`).errors([{ type: "repaired", repair: "wrapper-tag", call: 0 }]).expect({ content: "Checking.\n", tool_calls: [{ name: "get_current_weather", arguments: boston }] });
  });

  it("tags that do not close in order, that hold prose or text beside the call, or never close: content, no error", () => {
    for (const text of [
      `<response><tools>${call}</response></tools>`,
      "<response>\nThe <tools> tag lists the tools.\n</response>",
      `<tools>${call} and then</tools>`,
      `<function_call>${call}`,
      `<tools>{"type": "function", "function": {"name": "get_current_weather"}}</tools>`,
    ]) {
      tester("hermes").tools(WEATHER).test(text).expect({ content: text });
    }
  });

  it("a wrapped call whose arguments do not validate: content, with invalid_arguments and no repair", () => {
    const text = '<function_call>{"name": "get_current_weather", "arguments": {"unit": "c"}}</function_call>';
    tester("hermes").tools(WEATHER).test(text).errors([{ type: "invalid_arguments", name: "get_current_weather" }]).expect({ content: text });
  });

  it("streaming releases prose after an open tag at once", () => {
    expect(contentBeforeEnd("hermes", "<response>\nThe answer is", WEATHER)).toBe("<response>\nThe answer is");
    expect(contentBeforeEnd("hermes", `<response><tools>${call}`, WEATHER)).toBe("");
  });
});

describe("wrapper-key and bare-call in mistral", () => {
  const devstral = '{\n  "tool_calls": [\n    {\n      "name": "file_view",\n      "arguments": {\n        "path": "src/util.rs",\n        "view_range": [\n          20,\n          40\n        ]\n      },\n      "id": "162875335"\n    }\n  ]\n}';

  it("a bare {\"tool_calls\": [...]} answer (Devstral, llama.cpp#14697)", () => {
    tester("mistral")
      .tools(VIEW)
      .test(devstral)
      .errors([
        { type: "repaired", repair: "wrapper-key", call: 0, text: '{\n  "tool_calls": [' },
        { type: "repaired", repair: "bare-call", call: 0 },
      ])
      .expect({ content: null, tool_calls: [{ name: "file_view", arguments: { path: "src/util.rs", view_range: [20, 40] } }] });
  });

  it("a wrapper key holding one call object instead of a list is that call", () => {
    tester("mistral")
      .tools(VIEW)
      .test('{"tool_calls": {"name": "file_view", "arguments": {"path": "a"}}}')
      .errors([{ type: "repaired", repair: "wrapper-key", call: 0 }, { type: "repaired", repair: "bare-call", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "file_view", arguments: { path: "a" } }] });
  });

  it("after [TOOL_CALLS] too, and two calls in the list", () => {
    const two = '[TOOL_CALLS]{"tool_calls": [{"name": "file_view", "arguments": {"path": "a"}}, {"name": "file_view", "arguments": {"path": "b"}}]}';
    tester("mistral")
      .tools(VIEW)
      .test(two)
      .errors([{ type: "repaired", repair: "wrapper-key", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "file_view", arguments: { path: "a" } }, { name: "file_view", arguments: { path: "b" } }] });
  });

  it("a wrapper object with another key, or a wrapper in a list: no call", () => {
    for (const text of [
      '{"tool_calls": [{"name": "file_view", "arguments": {"path": "a"}}], "note": 1}',
      '[{"tool_calls": [{"name": "file_view", "arguments": {"path": "a"}}]}]',
      '{"note": 1, "tool_calls": [{"name": "file_view", "arguments": {"path": "a"}}]}',
    ]) {
      const r = tester("mistral").tools(VIEW).test(text);
      r.expect({ content: text });
    }
  });

  it("llama3-json: the OpenAI message shape around the call object, its last brace missing (vllm#11786)", () => {
    const traffic = [tool("get_current_traffic", { location: { type: "string" } }, ["location"])];
    tester("llama3-json")
      .tools(traffic)
      .test('{"type": "function", "function": {"name": "get_current_traffic", "parameters": {"location": "Sydney"}}')
      .errors([{ type: "repaired", repair: "wrapper-key", call: 0, text: '{"type": "function", "function": ', message: 'the object under "function" (an object around the calls) read as the calls' }])
      .expect({ content: null, tool_calls: [{ name: "get_current_traffic", arguments: { location: "Sydney" } }] });
    // A key after the call object is text after the call, as after any complete call.
    tester("llama3-json")
      .tools(traffic)
      .test('{"function": {"name": "get_current_traffic", "parameters": {"location": "Sydney"}}, "id": 1}')
      .errors([{ type: "repaired", repair: "wrapper-key", call: 0 }])
      .expect({ content: ', "id": 1}', tool_calls: [{ name: "get_current_traffic", arguments: { location: "Sydney" } }] });
    const named = '{"name": "get_current_traffic", "function": {"name": "get_current_traffic", "parameters": {}}}';
    tester("llama3-json").tools(traffic).test(named).errors([{ type: "malformed" }]).expect({ content: named });
  });

  it("a JSON-RPC request in a ``` fence (Mistral Nemo, ollama#5976)", () => {
    tester("mistral")
      .tools(EVAL)
      .test('```\n{\n  "jsonrpc": "2.0",\n  "method": "eval",\n  "params": {\n    "expression": "5234 / 6453 * 23456"\n  }\n}\n```')
      .errors([
        { type: "repaired", repair: "fence", text: "```", call: 0 },
        { type: "repaired", repair: "key-alias", text: '"jsonrpc": "2.0"', call: 0 },
        { type: "repaired", repair: "key-alias", text: '"method"', call: 0 },
        { type: "repaired", repair: "key-alias", text: '"params"', call: 0 },
      ])
      .expect({ content: null, tool_calls: [{ name: "eval", arguments: { expression: "5234 / 6453 * 23456" } }] });
  });

  it("an envelope key in a family that does not tolerate it makes the object no call", () => {
    const text = '<tool_call>{"jsonrpc": "2.0", "name": "eval", "arguments": {"expression": "1"}}</tool_call>';
    tester("hermes").tools(EVAL).test(text).errors([{ type: "malformed", name: "eval" }]).expect({ content: text });
  });
});

describe("the wrapper tolerances as data", () => {
  const family = (id: string) => listFormats().find((f) => f.id === id)!;
  const withTolerance = (id: string, t: unknown) => () => compileFormat({ ...family(id), id: "probe", tolerate: [t as Tolerance] } as FormatDescription);
  const evidence = "https://github.com/madroidmaq/mlx-omni-server/issues/4";

  it("are checked when a description is compiled, naming what is wrong", () => {
    expect(withTolerance("hermes", { kind: "wrapper-tag", tags: [["<a>"]], evidence })).toThrow(/"tags" must be \[open, close\] pairs/);
    expect(withTolerance("hermes", { kind: "wrapper-tag", tags: [["a", "b"]], evidence })).toThrow(/"tags" must be/);
    expect(withTolerance("gemma4", { kind: "wrapper-tag", tags: [["<a>", "</a>"]], evidence })).toThrow(/no region of JSON call objects/);
    expect(withTolerance("hermes", { kind: "wrapper-key", keys: [], evidence })).toThrow(/"keys" must be non-empty/);
    expect(withTolerance("gemma4", { kind: "wrapper-key", keys: ["tool_calls"], evidence })).toThrow(/writes no JSON call objects/);
    expect(withTolerance("hermes", { kind: "fence", open: ["```xml"], around: "<tool_call>", anywhere: true, evidence })).toThrow(/"anywhere" is a boolean, with "payload"/);
    expect(withTolerance("hermes", { kind: "fence", open: ["```xml"], around: "<function_call>", evidence })).toThrow(/no region's start marker/);
  });
});
