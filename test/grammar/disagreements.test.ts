/**
 * The grammar/parser disagreements found by sampling a real llama.cpp engine under our grammars
 * (issue 8), one case each: the grammar now rejects what the parser would read differently, and
 * still accepts the nearby text that reads back exactly. Membership by the independent recogniser.
 */
import { describe, expect, it } from "vitest";
import { buildGbnf } from "../../src/grammar/index.js";
import { parseCompletion } from "../../src/parse/index.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";

const CITY = {
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, note: { type: ["string", "null"] } }, required: ["city"] } },
};
const REQUEST = { tools: [CITY], tool_choice: "required" };

const qwen = new GbnfRecognizer(buildGbnf("qwen3-coder", REQUEST));
const call = (value: string, extra = "") => `<tool_call>\n<function=get_weather>\n<parameter=city>\n${value}\n</parameter>\n${extra}</function>\n</tool_call>`;

describe("qwen3-coder raw values", () => {
  it("the issue's case: a value holding `</parameter> </tool_call>` is not grammatical (the parser read a different call)", () => {
    const text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis</parameter> </tool_call> and more\n</parameter>\n</function>\n</tool_call>";
    expect(qwen.accepts(text)).toBe(false);
    // What the parser makes of it: not the call the old grammar derived (city "Paris</parameter> </tool_call> and more").
    const parsed = parseCompletion("qwen3-coder", text, REQUEST);
    expect(parsed.message.tool_calls?.[0]?.function.arguments).not.toBe(JSON.stringify({ city: "Paris</parameter> </tool_call> and more" }));
  });

  it("no tag of the format inside a value, at a line start or not", () => {
    for (const tag of ["</tool_call>", "</parameter>", "<parameter=x>", "</function>", "<function=f>", "<tool_call>", "<think>", "<|im_end|>"]) {
      expect(qwen.accepts(call(`a ${tag} b`)), tag).toBe(false);
      expect(qwen.accepts(call(`a\n${tag}\nb`)), tag).toBe(false);
    }
  });

  it("code with `<`, `</`, quotes and newlines is fine, and reads back exactly", () => {
    const code = 'if (a < b) { x = "</div>"; }\n  return <T>(y);';
    expect(qwen.accepts(call(code))).toBe(true);
    const parsed = parseCompletion("qwen3-coder", call(code), REQUEST);
    expect(parsed.errors).toEqual([]);
    expect(JSON.parse(parsed.message.tool_calls![0]!.function.arguments)).toEqual({ city: code });
  });

  it("the string branch of a nullable string cannot be the text `null` (the parser reads null), but `nullish` is a string", () => {
    const stringBranch = new GbnfRecognizer(buildGbnf("qwen3-coder", REQUEST), "raw-text-not-null");
    for (const v of ["null", " None ", "None\n"]) expect(stringBranch.accepts(v), v).toBe(false);
    for (const v of ["nullish", "Null", "a null", ""]) expect(stringBranch.accepts(v), v).toBe(true);
    const note = (v: string) => call("Oslo", `<parameter=note>\n${v}\n</parameter>\n`);
    // `null` is still grammatical: as the null branch, which is what the parser reads.
    expect(JSON.parse(parseCompletion("qwen3-coder", note("null"), REQUEST).message.tool_calls![0]!.function.arguments)).toEqual({ city: "Oslo", note: null });
    expect(JSON.parse(parseCompletion("qwen3-coder", note("nullish"), REQUEST).message.tool_calls![0]!.function.arguments)).toEqual({ city: "Oslo", note: "nullish" });
  });

  it("no carriage return in a raw value (a final `\\r` would be stripped with the newline)", () => {
    expect(qwen.accepts(call("a\r"))).toBe(false);
  });
});

describe("pythonic strings: only escapes Python (and our reader) accept", () => {
  const py = new GbnfRecognizer(buildGbnf("pythonic", REQUEST));
  const at = (s: string) => `[get_weather(city=${s})]`;
  it("rejects \\xZZ, \\u12, unknown escapes and lone surrogates", () => {
    for (const bad of ["'a\\xZZ'", "'a\\u12'", "'a\\q'", "'\\ud800'", "'a\\N{DASH}'"]) expect(py.accepts(at(bad)), bad).toBe(false);
  });
  it("accepts \\x41, \\u00e9, \\n, \\' and either quote style", () => {
    for (const good of ["'a\\x41'", "'\\u00e9'", "'a\\nb'", "'it\\'s'", '"x"']) expect(py.accepts(at(good)), good).toBe(true);
  });
});

describe("whitespace runs are bounded in structural positions only", () => {
  const hermes = new GbnfRecognizer(buildGbnf("hermes", { tools: [CITY] }));
  const required = new GbnfRecognizer(buildGbnf("hermes", { tools: [CITY], tool_choice: "required" }));
  const good = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>';
  it("free text, text between calls under auto and strings are the model's: any run", () => {
    expect(hermes.accepts(`Hi${" ".repeat(40)}there`)).toBe(true);
    expect(hermes.accepts(`${good}${"\n".repeat(30)}${good}`)).toBe(true);
    expect(hermes.accepts(good.replace('"Oslo"', `"${" ".repeat(40)}"`))).toBe(true);
  });
  it("between JSON tokens and between calls under required: at most the bound", () => {
    expect(hermes.accepts(good.replace('": {', `":${" ".repeat(21)}{`))).toBe(false);
    expect(required.accepts(`${good}${"\n".repeat(20)}${good}`)).toBe(true);
    expect(required.accepts(`${good}${"\n".repeat(21)}${good}`)).toBe(false);
  });
});

describe("hermes: a JSON string cannot hold the region's end marker", () => {
  it("`</tool_call>` inside an argument string is not grammatical; its escaped form is", () => {
    const hermes = new GbnfRecognizer(buildGbnf("hermes", REQUEST));
    const with_ = (s: string) => `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${s}"}}\n</tool_call>`;
    expect(hermes.accepts(with_("a </tool_call> b"))).toBe(false);
    expect(hermes.accepts(with_("a <\\/tool_call> b"))).toBe(true);
  });
});
