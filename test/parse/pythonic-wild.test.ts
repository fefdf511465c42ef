/**
 * The pythonic family on real BFCL completions (fixtures/wild/pythonic, issue 18): a call written
 * without its `[...]` (the `bare-call` tolerance in its own call syntax), a stray `(` after a good call,
 * and a keyword given twice. Each case runs one-shot, code point by code point, at random cuts and at
 * every two-push cut (the tester).
 */
import { describe, expect, it } from "vitest";
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
const RESERVE = [tool("nature_reserve.find_nearby", { location: { type: "string" }, amenities: { type: "array", items: { type: "string" } }, proximity: { type: "integer" } }, ["location", "amenities", "proximity"])];
const FOOD = [tool("ChaFod", { TheFod: { type: "string" } }, ["TheFod"])];

describe("pythonic: text that stays beside a valid call", () => {
  it("a stray ( after a good call: the call is read, the rest is content, and the error's text is only what content kept", () => {
    const second = '(nature_reserve.find_nearby(location="Tokyo", amenities=["Playgrounds"], proximity=5)]';
    tester("pythonic")
      .tools(RESERVE)
      .test(`[nature_reserve.find_nearby(location="Berkeley", amenities=["Picnic Tables"], proximity=10), ${second}`)
      .errors([{ type: "malformed", message: 'not a call: "("', text: "" }])
      .expect({ content: second, tool_calls: [{ name: "nature_reserve.find_nearby", arguments: { location: "Berkeley", amenities: ["Picnic Tables"], proximity: 10 } }] });
  });

  it("a failed item after a good call keeps its own text as the error's", () => {
    tester("pythonic")
      .tools(FOOD)
      .test('[ChaFod(TheFod="A"), ChaFod(TheFod=@)]')
      .errors([{ type: "malformed", name: "ChaFod", text: "ChaFod(TheFod=" }])
      .expect({ content: "ChaFod(TheFod=@)]", tool_calls: [{ name: "ChaFod", arguments: { TheFod: "A" } }] });
  });
});

describe("pythonic: a keyword given twice", () => {
  it("is no call (Python refuses f(a=1, a=2)): malformed, its text kept", () => {
    const text = '[ChaFod(TheFod="GREENS", TheFod="PIZZA")]';
    tester("pythonic")
      .tools(FOOD)
      .test(text)
      .errors([{ type: "malformed", message: 'keyword argument "TheFod" repeated', name: "ChaFod", text: '[ChaFod(TheFod="GREENS", TheFod' }])
      .expect({ content: text });
    tester("pythonic")
      .tools(FOOD)
      .test(`<|python_start|>${text}<|python_end|>`)
      .errors([{ type: "malformed", name: "ChaFod" }])
      .expect({ content: `<|python_start|>${text}<|python_end|>` });
  });

  it("a dict argument may repeat a key, as Python's dict literal does (the last wins)", () => {
    tester("pythonic")
      .tools([tool("f", { d: { type: "object" } })])
      .test("[f(d={'a': 1, 'a': 2})]")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { d: { a: 2 } } }] });
  });
});

const LAWYER = [tool("lawyer.search", { location: { type: "string" }, expertise: { type: "string" } }, ["location", "expertise"])];
const ANSWER = [tool("answer.string", { answer: { type: "string" } }, ["answer"])];
const MESSAGE = 'a completion that is only a python call, without "<|python_start|>" or "[", read as a call';

describe("pythonic: bare-call, one Python call without its [...]", () => {
  it("is the call when it is the whole answer and names a declared tool (BFCL, Gemma 4 E4B), under auto, required or that tool", () => {
    const call = 'lawyer.search(location="Los Angeles", expertise="Divorce")';
    const want = { content: null, tool_calls: [{ name: "lawyer.search", arguments: { location: "Los Angeles", expertise: "Divorce" } }] };
    tester("pythonic").tools(LAWYER).test(call).errors([{ type: "repaired", repair: "bare-call", message: MESSAGE, name: "lawyer.search", call: 0, text: call }]).expect(want);
    tester("pythonic").tools(LAWYER).toolChoice("required").test(`\n${call}\n`).errors([{ type: "repaired", repair: "bare-call", text: call }]).expect(want);
    tester("pythonic").tools(LAWYER).toolChoice({ type: "function", function: { name: "lawyer.search" } }).test(call).errors([{ type: "repaired", repair: "bare-call" }]).expect(want);
  });

  it("string arguments with escapes and newlines, as the model wrote them", () => {
    const call = 'answer.string(answer="Sure:\\n\\n**Not in the text.**")';
    tester("pythonic")
      .tools(ANSWER)
      .test(call)
      .errors([{ type: "repaired", repair: "bare-call", text: call }])
      .expect({ content: null, tool_calls: [{ name: "answer.string", arguments: { answer: "Sure:\n\n**Not in the text.**" } }] });
  });

  it("not a bare call, kept as content without an error: other text, an undeclared tool, no tools, tool_choice none, two calls, cut off", () => {
    const call = 'lawyer.search(location="LA", expertise="Divorce")';
    for (const text of [`${call} and then some`, `Sure: ${call}`, `${call}\n${call}`, `${call}, ${call}`, 'lawyer.search(location="LA"', 'lawyer.search(location="LA", location="LA")', "lawyer.search", "Hello there", "lawyer is a word", "lawyer.searching(location='x')"]) {
      tester("pythonic").tools(LAWYER).test(text).expect({ content: text });
    }
    tester("pythonic").tools(LAWYER).test('other.tool(location="LA")').expect({ content: 'other.tool(location="LA")' });
    tester("pythonic").test(call).expect({ content: call });
    tester("pythonic").tools(LAWYER).toolChoice("none").test(call).expect({ content: call });
    tester("pythonic").tools(LAWYER).toolChoice({ type: "function", function: { name: "other" } }).test(call).expect({ content: call });
  });

  it("a bare call to a declared tool whose arguments do not validate: content, with its error", () => {
    tester("pythonic").tools(LAWYER).test('lawyer.search(location="LA")').errors([{ type: "invalid_arguments", name: "lawyer.search" }]).expect({ content: 'lawyer.search(location="LA")' });
  });

  it("the family's own list is still read as before, and a bare call later in prose stays prose", () => {
    tester("pythonic")
      .tools(LAWYER)
      .test('[lawyer.search(location="LA", expertise="Tax")]')
      .expect({ content: null, tool_calls: [{ name: "lawyer.search", arguments: { location: "LA", expertise: "Tax" } }] });
    tester("pythonic").tools(LAWYER).test('I would call lawyer.search(location="LA", expertise="Tax")').expect({ content: 'I would call lawyer.search(location="LA", expertise="Tax")' });
  });

  it("streaming holds only text that may still be that call: prose goes at the first character no accepted name has there", () => {
    const held = (text: string, tools: unknown[] | null = LAWYER) => contentBeforeEnd("pythonic", text, tools);
    expect(held("Hello there")).toBe("Hello there");
    expect(held("l")).toBe("");
    expect(held("law")).toBe("");
    expect(held("lawn")).toBe("lawn");
    expect(held("lawyer is")).toBe("lawyer is");
    expect(held("lawyer.search")).toBe("");
    expect(held('lawyer.search(location="LA"')).toBe("");
    expect(held('lawyer.search(location="LA", expertise="Tax") ok')).toBe('lawyer.search(location="LA", expertise="Tax") ok');
    expect(held("lawyer.search(")).toBe("");
    expect(held("lawyer.searcher(")).toBe("lawyer.searcher(");
    expect(held("lawyer", null)).toBe("lawyer");
    expect(held("lawyer", [tool("lawyer", {}), ...LAWYER])).toBe("");
  });
});

describe("bare-call in a family's own call syntax, as data", () => {
  const family = (id: string) => listFormats().find((f) => f.id === id)!;
  const withTolerance = (id: string, t: unknown) => () => compileFormat({ ...family(id), id: "probe", tolerate: [t as Tolerance] } as FormatDescription);
  const evidence = "https://github.com/ShishirPatil/gorilla";

  it("is checked when a description is compiled, naming what is wrong", () => {
    expect(withTolerance("pythonic", { kind: "bare-call", payload: { kind: "tagged", params: { open: [], close: "" } }, evidence })).toThrow(/"payload" must be a json-calls or literal-calls payload/);
    expect(withTolerance("pythonic", { kind: "bare-call", payload: { kind: "literal-calls", dialect: "json" }, evidence })).toThrow(/writes no json calls of that syntax/);
    expect(withTolerance("hermes", { kind: "bare-call", payload: { kind: "literal-calls", dialect: "python" }, evidence })).toThrow(/writes no python calls/);
    expect(withTolerance("pythonic", { kind: "bare-call", payload: { kind: "literal-calls", dialect: "python", list: false }, evidence })).not.toThrow();
  });

  it("a description without it reads a bare Python call as content, as before", () => {
    const { tolerate: _t, ...plain } = family("pythonic");
    const call = 'lawyer.search(location="LA", expertise="Tax")';
    expect(parseCompletion(plain as FormatDescription, call, { tools: LAWYER }).message.content).toBe(call);
    expect(parseCompletion("pythonic", call, { tools: LAWYER }).message.content).toBeNull();
  });
});
