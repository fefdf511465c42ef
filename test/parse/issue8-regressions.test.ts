/**
 * The text-lost and wrong-call cases of issue 8, minimised, each checked one-shot and at every split
 * (the tester). Expectations come from the statement of what must happen and from what the
 * family's own template renders, not from what the engine does today.
 */
import { describe, expect, it } from "vitest";
import { parseCompletion } from "../../src/parse/index.js";
import { tester } from "../helpers/tester.js";

const F = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];

describe("issue 8 regressions", () => {
  it("qwen3-coder: a call written on one line is a call", () => {
    tester("qwen3-coder")
      .tools(F)
      .test("<tool_call><function=f><parameter=a>1</parameter></function></tool_call>")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { a: "1" } }] });
  });

  it("qwen3-coder: a close tag then a space on the same line is still code", () => {
    tester("qwen3-coder")
      .tools(F)
      .test("<tool_call>\n<function=f>\n<parameter=a>\nx = '</parameter> <parameter=b>'\n</parameter>\n</function>\n</tool_call>")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { a: "x = '</parameter> <parameter=b>'" } }] });
  });

  it("hermes: </tool_call> inside an argument string does not end the call", () => {
    tester("hermes")
      .tools(F)
      .test('<tool_call>\n{"name": "f", "arguments": {"a": "x</tool_call>y"}}\n</tool_call>')
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { a: "x</tool_call>y" } }] });
  });

  it("hermes: a string broken by a raw newline does not swallow the rest of the output", () => {
    const bad = '<tool_call>\n{"name": "f", "arguments": {"a": "x\n</tool_call>';
    tester("hermes")
      .tools(F)
      .test(`${bad}\nok <tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>`)
      .errors([{ type: "malformed", name: "f" }])
      .expect({ content: `${bad}\nok `, tool_calls: [{ name: "f", arguments: {} }] });
  });

  for (const format of ["hermes", "nemotron-v2", "apriel"]) {
    it(`${format}: a misspelt arguments key is an error, its text kept`, () => {
      const [open, close] = format === "hermes" ? ["<tool_call>\n", "\n</tool_call>"] : format === "nemotron-v2" ? ["<TOOLCALL>[", "]</TOOLCALL>"] : ["<tool_calls>[", "]</tool_calls>"];
      const text = `${open}{"name": "f", "argumentz": {"a": 1}}${close}`;
      tester(format).tools(F).test(text).errors([{ type: "malformed", name: "f" }]).expect({ content: text });
    });
  }

  it("deepseek-v3.1 / kimi-k2 / deepseek-r1: text in a section with a valid call is content, spaces kept when streamed", () => {
    tester("deepseek-v3.1")
      .tools(F)
      .test("<｜tool▁calls▁begin｜>hello <｜tool▁call▁begin｜>f<｜tool▁sep｜>{}<｜tool▁call▁end｜> broken text with spaces<｜tool▁calls▁end｜>")
      .expect({ content: "hello  broken text with spaces", tool_calls: [{ name: "f", arguments: {} }] });
    tester("kimi-k2")
      .tools(F)
      .test("<|tool_calls_section_begin|>hello <|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|> broken text with spaces<|tool_calls_section_end|>")
      .expect({ content: "hello  broken text with spaces", tool_calls: [{ name: "f", arguments: {}, id: "functions.f:0" }] });
    tester("deepseek-r1")
      .tools(F)
      .test("<｜tool▁calls▁begin｜>hello <｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{}\n```<｜tool▁call▁end｜> tail<｜tool▁calls▁end｜>")
      .expect({ content: "hello  tail", tool_calls: [{ name: "f", arguments: {} }] });
  });

  it("harmony / functionary v3.2: output with no header end is content", () => {
    tester("harmony").tools(F).test("Hello!").expect({ content: "Hello!" });
    tester("functionary-v3.2").tools(F).test("Hello!").expect({ content: "Hello!" });
    tester("harmony").tools(F).test("Hi there\nHow are you?").expect({ content: "Hi there\nHow are you?" });
  });

  it("mistral: an id the next turn's template would refuse is replaced by 9 alphanumerics", () => {
    // (`[CALL_ID]` takes an id without spaces; `not a valid id!!` there makes no header at all.)
    for (const text of ['[TOOL_CALLS][{"name": "f", "arguments": {}, "id": "not a valid id!!"}]', "[TOOL_CALLS]f[CALL_ID]abc-123!![ARGS]{}", "[TOOL_CALLS]f[CALL_ID]a1b2c3d4e5f6[ARGS]{}"]) {
      const r = parseCompletion("mistral", text, { tools: F });
      expect(r.errors).toEqual([]);
      expect(r.message.tool_calls?.map((c) => c.id)).toEqual([expect.stringMatching(/^[A-Za-z0-9]{9}$/)]);
    }
  });

  it("parallel_tool_calls false: a second call is an error, its text kept as content", () => {
    const call = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>';
    const r = parseCompletion("hermes", `${call}${call}`, { tools: F, parallel_tool_calls: false });
    expect(r.message.tool_calls).toHaveLength(1);
    expect(r.message.content).toBe(call);
    expect(r.errors.map((e) => [e.type, e.name, e.text])).toEqual([["tool_choice", "f", call]]);
  });

  it("pythonic: a bare list that fails at an escape a push ended with fails at the same place for every split", () => {
    // Streamed code point by code point, the backslash arrives alone and the reader holds it; the
    // failure's text must still end before it, as in the one-shot read (found by npm run fuzz).
    const text = "[f(a='x\\u{oops}')]";
    tester("pythonic").tools(F).test(text).errors([{ type: "malformed", name: "f" }]).expect({ content: text });
    expect(parseCompletion("pythonic", text, { tools: F }).errors[0]!.text).toBe("[f(a='x");
  });

  it("failure messages quote region text, the same for every split", () => {
    // The tester checks every split folds to the one-shot result, error messages included.
    tester("hermes").tools(F).test("<tool_call>\n{oops not json at all}\n</tool_call>").errors([{ type: "malformed" }]).expect({ content: "<tool_call>\n{oops not json at all}\n</tool_call>" });
    tester("qwen3-coder").tools(F).test("<tool_call>\n<function=f>\njunk here, more junk, and then some more junk\n</function>\n</tool_call>").errors([{ type: "malformed", name: "f" }]).expect({ content: "<tool_call>\n<function=f>\njunk here, more junk, and then some more junk\n</function>\n</tool_call>" });
  });
});
