/**
 * What the parser does with output that is not a valid call (issue 3): unknown tools, schema violations
 * (enum, required, additionalProperties, types), truncated and malformed calls come back as `errors`,
 * their text kept in content, never as tool_calls and never as exceptions; tool_choice none / required /
 * named is honoured. Also: a 1 MB completion with 50 calls parses correctly (its speed is the bench's).
 */
import { describe, expect, it } from "vitest";
import { expectTextKept } from "./helpers/expect-message.js";
import { caseTools, completionFiles, peerCases } from "./helpers/fixtures.js";
import { cutPositions } from "./helpers/rng.js";
import { parseOneShot, parseStreamed } from "./helpers/run-parse.js";
import type { RunSpec } from "./helpers/run-parse.js";
import { tester } from "./helpers/tester.js";

function tool(name: string, parameters: Record<string, unknown>): unknown {
  return { type: "function", function: { name, parameters } };
}

const WEATHER = tool("get_weather", {
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  required: ["city"],
  additionalProperties: false,
});
const SEARCH = tool("search", {
  type: "object",
  properties: { query: { type: "string" }, limit: { type: "integer" } },
  required: ["query"],
});
const TOOLS = [WEATHER, SEARCH];

const hermesCall = (json: string): string => `<tool_call>\n${json}\n</tool_call>`;
const qwenCall = (name: string, params: Array<[string, string]>): string =>
  `<tool_call>\n<function=${name}>\n${params.map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join("")}</function>\n</tool_call>`;

/** One completion per family that fails in a given way; the whole text must come back as content. */
interface Failing {
  what: string;
  format: string;
  raw: string;
  type: "unknown_tool" | "invalid_arguments" | "malformed" | "truncated";
  name?: string;
}

const FAILING: Failing[] = [
  // unknown tools
  { what: "unknown tool", format: "hermes", raw: hermesCall('{"name": "delete_all", "arguments": {}}'), type: "unknown_tool", name: "delete_all" },
  { what: "unknown tool", format: "qwen3-coder", raw: qwenCall("rm_rf", [["path", "/"]]), type: "unknown_tool", name: "rm_rf" },
  { what: "unknown tool", format: "pythonic", raw: "[launch_rocket(target='moon')]", type: "unknown_tool", name: "launch_rocket" },
  { what: "unknown tool", format: "mistral", raw: '[TOOL_CALLS]send_email[ARGS]{"to": "x@example.com"}', type: "unknown_tool", name: "send_email" },
  {
    what: "unknown tool",
    format: "kimi-k2",
    raw: '<|tool_calls_section_begin|><|tool_call_begin|>functions.shutdown:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>',
    type: "unknown_tool",
    name: "shutdown",
  },
  // schema violations
  { what: "enum", format: "hermes", raw: hermesCall('{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "kelvin"}}'), type: "invalid_arguments", name: "get_weather" },
  { what: "required", format: "hermes", raw: hermesCall('{"name": "get_weather", "arguments": {"unit": "celsius"}}'), type: "invalid_arguments", name: "get_weather" },
  { what: "additionalProperties", format: "hermes", raw: hermesCall('{"name": "get_weather", "arguments": {"city": "Oslo", "country": "NO"}}'), type: "invalid_arguments", name: "get_weather" },
  { what: "type", format: "hermes", raw: hermesCall('{"name": "search", "arguments": {"query": "x", "limit": "five"}}'), type: "invalid_arguments", name: "search" },
  { what: "arguments not an object", format: "hermes", raw: hermesCall('{"name": "search", "arguments": [1, 2]}'), type: "invalid_arguments", name: "search" },
  { what: "enum (typed value)", format: "qwen3-coder", raw: qwenCall("get_weather", [["city", "Oslo"], ["unit", "kelvin"]]), type: "invalid_arguments", name: "get_weather" },
  { what: "type (typed value)", format: "qwen3-coder", raw: qwenCall("search", [["query", "x"], ["limit", "five"]]), type: "invalid_arguments", name: "search" },
  { what: "required (pythonic)", format: "pythonic", raw: "[search(limit=3)]", type: "invalid_arguments", name: "search" },
  { what: "additionalProperties (mistral)", format: "mistral", raw: '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo", "zip": "0150"}', type: "invalid_arguments", name: "get_weather" },
  // truncated (the stream ended inside the call)
  { what: "truncated in the arguments", format: "hermes", raw: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Pa', type: "truncated", name: "get_weather" },
  { what: "truncated in a parameter", format: "qwen3-coder", raw: "<tool_call>\n<function=get_weather>\n<parameter=city>\nPa", type: "truncated", name: "get_weather" },
  { what: "truncated in the call list", format: "pythonic", raw: "[get_weather(city='Pa", type: "truncated", name: "get_weather" },
  // malformed (the call region closed, but its payload is not a call)
  { what: "malformed JSON", format: "hermes", raw: hermesCall('{"name": "get_weather", "arguments": {city: Oslo}}'), type: "malformed" },
  { what: "malformed JSON", format: "nemotron-v2", raw: '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": }]</TOOLCALL>', type: "malformed" },
];

describe("failed calls are errors, with their text kept as content", () => {
  for (const f of FAILING) {
    it(`${f.format}: ${f.what}`, () => {
      tester(f.format)
        .tools(TOOLS)
        .test(f.raw)
        .errors([f.name === undefined ? { type: f.type } : { type: f.type, name: f.name }])
        .expect({ content: f.raw });
    });
  }

  it("an ajv error list comes with invalid_arguments", () => {
    const result = parseOneShot({ format: "hermes", request: { tools: TOOLS } }, FAILING[5]!.raw);
    expect(result.errors[0]!.details).toEqual(expect.arrayContaining([expect.objectContaining({ keyword: "enum" })]));
    expect(result.errors[0]!.message).toMatch(/allowed values|enum/);
  });

  it("a valid call next to a failed one survives, and text order is kept", () => {
    const bad = hermesCall('{"name": "get_weather", "arguments": {"city": 7}}');
    const good = hermesCall('{"name": "search", "arguments": {"query": "oslo"}}');
    tester("hermes")
      .tools(TOOLS)
      .test(`Before. ${bad} Middle. ${good} After.`)
      .errors([{ type: "invalid_arguments", name: "get_weather" }])
      .expect({
        content: `Before. ${bad} Middle.  After.`,
        tool_calls: [{ name: "search", arguments: { query: "oslo" } }],
      });
  });
});

describe("streaming: a call that fails after it was opened", () => {
  const raw = hermesCall('{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "kelvin"}}');

  it("was streamed with an index, is named by that index in the final errors, and is dropped by foldDeltas", () => {
    const run = parseStreamed({ format: "hermes", request: { tools: TOOLS } }, [...raw]);
    const opened = run.deltas.flatMap((d) => d.tool_calls ?? []).filter((c) => c.id !== undefined);
    expect(opened.map((c) => [c.index, c.function.name])).toEqual([[0, "get_weather"]]);
    const final = run.deltas[run.deltas.length - 1]!;
    expect(final.finish_reason).toBe("stop");
    expect(final.errors).toEqual([expect.objectContaining({ type: "invalid_arguments", index: 0, name: "get_weather" })]);
    // The raw text came as content when the call closed, so content order is preserved.
    expect(run.deltas.map((d) => d.content ?? "").join("")).toBe(raw);
    expect(run.result.message.tool_calls).toBeUndefined();
    expect(run.result.message.content).toBe(raw);
    // One-shot errors carry no index (nothing was streamed).
    expect(run.result.errors[0]!.index).toBeUndefined();
  });
});

describe("tool_choice", () => {
  const call = hermesCall('{"name": "get_weather", "arguments": {"city": "Oslo"}}');

  it("none: calls are not opened, the text stays content", () => {
    tester("hermes").tools(TOOLS).toolChoice("none").test(call).errors([{ type: "tool_choice", name: "get_weather" }]).expect({ content: call });
  });

  it("named: the named function is a call", () => {
    tester("hermes")
      .tools(TOOLS)
      .toolChoice({ type: "function", function: { name: "get_weather" } })
      .test(call)
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("named: another declared function is refused like an unknown tool, as a tool_choice error", () => {
    tester("hermes")
      .tools(TOOLS)
      .toolChoice({ type: "function", function: { name: "search" } })
      .test(call)
      .errors([{ type: "tool_choice", name: "get_weather" }])
      .expect({ content: call });
  });

  it("named, Responses shape", () => {
    tester("hermes")
      .tools(TOOLS)
      .toolChoice({ type: "function", name: "get_weather" })
      .test(call)
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("required: a plain answer is reported, the message is unchanged", () => {
    tester("hermes").tools(TOOLS).toolChoice("required").test("It is sunny.").errors([{ type: "tool_choice" }]).expect({ content: "It is sunny." });
  });

  it("required: satisfied by a valid call", () => {
    tester("hermes").tools(TOOLS).toolChoice("required").test(call).expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("required: an invalid call does not satisfy it", () => {
    const bad = hermesCall('{"name": "get_weather", "arguments": {}}');
    tester("hermes")
      .tools(TOOLS)
      .toolChoice("required")
      .test(bad)
      .errors([{ type: "invalid_arguments", name: "get_weather" }, { type: "tool_choice" }])
      .expect({ content: bad });
  });
});

describe("every family: calls to undeclared tools and tool_choice none never become tool_calls", () => {
  // Take every fixture completion that has calls, and declare a tool set that names none of them.
  const OTHER = [tool("unrelated_tool", { type: "object", properties: {} })];
  for (const file of completionFiles()) {
    // Cases whose every call succeeds (a case that also has a failing call names more calls than its
    // tool_calls; those are checked by their own expectations).
    const withCalls = file.cases.filter((c) => (c.expect.tool_calls ?? []).length > 0 && (c.errors ?? []).length === 0);
    it(`${file.format}: ${withCalls.length} completions`, () => {
      for (const c of withCalls) {
        // Every call the model made: the valid ones, and those a case already expects to be refused
        // as unknown (a fixture may hold a call to an undeclared tool next to valid ones).
        const refused = (c.errors ?? []).filter((e) => e.type === "unknown_tool" && e.name !== undefined).map((e) => e.name!);
        const names = [...c.expect.tool_calls!.map((t) => t.name), ...refused];
        const base: RunSpec = { format: file.format };
        if (c.promptSuffix !== undefined) base.promptSuffix = c.promptSuffix;
        for (const [request, type] of [
          [{ tools: OTHER }, "unknown_tool"],
          [{ tools: caseTools(file, c), tool_choice: "none" }, "tool_choice"],
        ] as const) {
          const label = `${c.name} with ${JSON.stringify(request.tools === OTHER ? "undeclared tools" : "tool_choice none")}`;
          const result = parseOneShot({ ...base, request }, c.completion);
          expect(result.message.tool_calls, label).toBeUndefined();
          expect(result.finish_reason, label).toBe("stop");
          const byName = (x: unknown[], y: unknown[]) => String(x[1]).localeCompare(String(y[1]));
          expect(result.errors.map((e) => [e.type, e.name]).sort(byName), label).toEqual(names.map((n) => [type, n]).sort(byName));
          expectTextKept(result, label);
          expect(parseStreamed({ ...base, request }, [...c.completion]).result, `${label}, streamed`).toEqual(result);
        }
      }
    });
  }
});

describe("never an exception on model output", () => {
  // Every prefix of every fixture and peer completion (a max_tokens cut anywhere) parses, text kept.
  // One test per format: the corpus grows, and one test over all of it took longer than the per-test
  // hang guard on a loaded machine.
  const byFormat = new Map<string, Array<[RunSpec, string]>>();
  const add = (spec: RunSpec, text: string): void => {
    const list = byFormat.get(spec.format) ?? [];
    list.push([spec, text]);
    byFormat.set(spec.format, list);
  };
  for (const file of completionFiles()) {
    for (const c of file.cases) {
      const spec: RunSpec = { format: file.format, request: { tools: caseTools(file, c) } };
      if (c.promptSuffix !== undefined) spec.promptSuffix = c.promptSuffix;
      add(spec, c.completion);
    }
  }
  for (const c of peerCases()) add({ format: c.format, request: { tools: c.tools } }, c.completion);
  it.each([...byFormat.keys()].sort())("every prefix of every %s fixture and peer completion parses, text kept", (format) => {
    for (const [spec, text] of byFormat.get(format)!) {
      for (const cut of cutPositions(text)) {
        const label = `${spec.format}: ${JSON.stringify(text.slice(0, cut))}`;
        let result;
        try {
          result = parseOneShot(spec, text.slice(0, cut));
        } catch (e) {
          throw new Error(`${label} threw ${String(e)}`);
        }
        expectTextKept(result, label);
      }
    }
  });

  it("empty output: content is \"\", no calls, finish_reason stop", () => {
    for (const file of completionFiles()) {
      const result = parseOneShot({ format: file.format, request: { tools: file.tools } }, "");
      expect(result, file.format).toEqual({ message: { role: "assistant", content: "" }, finish_reason: "stop", errors: [] });
    }
  });

  it("junk, lone markers and control characters", () => {
    const junk = ["", "\u0000", "<", "</tool_call>", "<tool_call><tool_call>", "}{][", "\uffff\ud800", "[TOOL_CALLS]", "<|tool_call|>]]]", "```json\n{"];
    for (const file of completionFiles()) {
      for (const text of junk) {
        const result = parseOneShot({ format: file.format, request: { tools: file.tools } }, text);
        expect(result.message.tool_calls, `${file.format} ${JSON.stringify(text)}`).toBeUndefined();
        expectTextKept(result, `${file.format} ${JSON.stringify(text)}`);
      }
    }
  });
});

describe("a 1 MB completion with 50 calls", () => {
  // Each call writes a ~20 KB file whose content mixes ASCII, escapes and non-ASCII text.
  const chunk = 'line "quoted" \\ back\tslash — 深圳 ☕\n';
  const contentOf = (i: number): string => `# file ${i}\n` + chunk.repeat(Math.ceil(20_000 / chunk.length));
  const writeTool = tool("write_file", {
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path", "content"],
  });
  const calls = Array.from({ length: 50 }, (_, i) => ({ path: `out/${i}.txt`, content: contentOf(i) }));

  it("hermes: 50 calls with text between, one-shot and in 4 KB deltas", () => {
    const raw = calls
      .map((args, i) => `Step ${i}.\n<tool_call>\n${JSON.stringify({ name: "write_file", arguments: args })}\n</tool_call>\n`)
      .join("");
    expect(raw.length).toBeGreaterThan(1_000_000);
    const spec: RunSpec = { format: "hermes", request: { tools: [writeTool] } };
    const result = parseOneShot(spec, raw);
    expect(result.errors).toEqual([]);
    expect(result.message.tool_calls!.map((c) => JSON.parse(c.function.arguments))).toEqual(calls);
    // JSON formats keep the model's bytes: here the model wrote JSON.stringify of each arguments object.
    expect(result.message.tool_calls!.map((c) => c.function.arguments)).toEqual(calls.map((a) => JSON.stringify(a)));
    // Text between calls is kept verbatim; only the whitespace after the last call goes.
    expect(result.message.content).toBe(calls.map((_, i) => `${i === 0 ? "" : "\n"}Step ${i}.\n`).join(""));
    const pieces: string[] = [];
    for (let i = 0; i < raw.length; i += 4096) pieces.push(raw.slice(i, i + 4096));
    expect(parseStreamed(spec, pieces).result).toEqual(result);
  });

  it("qwen3-coder: the same 50 calls as typed parameters", () => {
    const raw = calls.map((args) => qwenCall("write_file", [["path", args.path], ["content", args.content]])).join("\n");
    expect(raw.length).toBeGreaterThan(1_000_000);
    const result = parseOneShot({ format: "qwen3-coder", request: { tools: [writeTool] } }, raw);
    expect(result.errors).toEqual([]);
    expect(result.message.tool_calls!.map((c) => JSON.parse(c.function.arguments))).toEqual(calls);
  });
});
