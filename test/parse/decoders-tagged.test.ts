/**
 * The tagged decoder (src/parse/decoders/tagged.ts) with each family's syntax, driven directly over a
 * region's inner text. Every case is decoded whole, at every single cut and code point by code point,
 * and must give the same calls (decoders-harness.ts); args fragments must concatenate to `arguments`.
 */
import { describe, expect, it } from "vitest";
import type { DecoderEvent } from "../../src/parse/decoder.js";
import { compilePayload } from "../../src/parse/compile-format.js";
import type { Payload } from "../../src/parse/language.js";
import { getFormat } from "../../src/formats/index.js";
import { callsOf, contextOf, decodeEverySplit } from "./decoders-harness.js";

/** The tagged payload a family's first region declares (past a first-character choice). */
function tagged(id: string) {
  let p: Payload = getFormat(id).regions[0]!.payload;
  if (p.kind === "by-first-char") p = p.otherwise;
  return compilePayload(p);
}
const qwen = tagged("qwen3-coder");
const glm = tagged("glm-4.5");
const minimax = tagged("minimax-m2");
const dsml = tagged("deepseek-v3.2");
const seed = tagged("seed-oss");

const TOOLS = contextOf({
  write_file: { type: "object", properties: { path: { type: "string" }, content: { type: "string" }, mode: { type: "integer" } } },
  calc: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "integer" }, exact: { type: "boolean" }, opts: { type: "object" }, tags: { type: "array" }, note: { type: ["string", "null"] } },
  },
});

describe("qwen3-coder syntax", () => {
  it("types values by the schema and writes JSON with Python's separators", () => {
    const r = decodeEverySplit(qwen, TOOLS, "\n<function=calc>\n<parameter=a>\n3.0\n</parameter>\n<parameter=b>\n7\n</parameter>\n<parameter=exact>\nTrue\n</parameter>\n<parameter=opts>\n{'k': [1, 2]}\n</parameter>\n<parameter=tags>\n[\"x\"]\n</parameter>\n<parameter=note>\nNone\n</parameter>\n</function>\n");
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0]!.arguments).toBe('{"a": 3.0, "b": 7, "exact": true, "opts": {"k": [1, 2]}, "tags": ["x"], "note": null}');
    expect(r.calls[0]!.raw).toBe("<function=calc>\n<parameter=a>\n3.0\n</parameter>\n<parameter=b>\n7\n</parameter>\n<parameter=exact>\nTrue\n</parameter>\n<parameter=opts>\n{'k': [1, 2]}\n</parameter>\n<parameter=tags>\n[\"x\"]\n</parameter>\n<parameter=note>\nNone\n</parameter>\n</function>");
  });

  it("keeps code that contains the closing tag, unless a real next tag follows on a new line", () => {
    const code = "if x:\n    s = '</parameter>'\n    t = \"</parameter> <parameter=a>\"\n</parameter>\nnot yet\n";
    const r = decodeEverySplit(qwen, TOOLS, `<function=write_file>\n<parameter=content>\n${code}\n</parameter>\n</function>`);
    expect(callsOf(r)).toEqual([{ name: "write_file", arguments: { content: code } }]);
  });

  it("ends a value whose </parameter> is missing at a <parameter= or </function> that starts a line", () => {
    const r = decodeEverySplit(qwen, TOOLS, "<function=write_file>\n<parameter=path>\na.txt\n<parameter=content>\nhi\n</function>");
    expect(callsOf(r)).toEqual([{ name: "write_file", arguments: { path: "a.txt", content: "hi" } }]);
  });

  it("strips one newline at each end of a string value, keeping the rest", () => {
    const r = decodeEverySplit(qwen, TOOLS, "<function=write_file>\n<parameter=content>\n\n  indented\n\n</parameter>\n<parameter=path>x</parameter>\n</function>");
    expect(callsOf(r)).toEqual([{ name: "write_file", arguments: { content: "\n  indented\n", path: "x" } }]);
  });

  it("keeps undeclared keys as strings; decodes them as JSON for Seed-OSS", () => {
    const text = "<function=f>\n<parameter=n>\n5\n</parameter>\n<parameter=xs>[1, 2]</parameter>\n</function>";
    expect(callsOf(decodeEverySplit(qwen, contextOf(), text))).toEqual([{ name: "f", arguments: { n: "5", xs: "[1, 2]" } }]);
    expect(callsOf(decodeEverySplit(seed, contextOf(), text))).toEqual([{ name: "f", arguments: { n: 5, xs: [1, 2] } }]);
  });

  it("reads several calls in one region, and a call with no parameters", () => {
    const r = decodeEverySplit(qwen, TOOLS, "\n<function=a>\n</function>\n<function=b>\n<parameter=x>\n1\n</parameter>\n</function>\n");
    expect(callsOf(r)).toEqual([{ name: "a", arguments: {} }, { name: "b", arguments: { x: "1" } }]);
    expect(r.calls[0]!.arguments).toBe("{}");
  });

  it("accepts a region that ends after complete parameters without </function>", () => {
    const r = decodeEverySplit(qwen, TOOLS, "<function=write_file>\n<parameter=path>\na\n</parameter>\n");
    expect(callsOf(r)).toEqual([{ name: "write_file", arguments: { path: "a" } }]);
  });

  it("ends a region without end marker at </function> and hands the rest back", () => {
    const ctx = { ...TOOLS, selfClosing: true };
    const r = decodeEverySplit(qwen, ctx, "<function=write_file>\n<parameter=path>\na\n</parameter>\n</function>\nDone. <b>bold</b>", false);
    expect(callsOf(r)).toEqual([{ name: "write_file", arguments: { path: "a" } }]);
    expect(r.rest).toBe("\nDone. <b>bold</b>");
  });

  it("without end marker, names the call only once a parameter or the close tag confirms it", () => {
    const ctx = { ...TOOLS, selfClosing: true };
    const prose = decodeEverySplit(qwen, ctx, "<function=write_file> is how you call it.", false);
    expect(prose.calls).toEqual([]);
    expect(prose.regionFail).toEqual({ type: "malformed", raw: "<function=write_file> " });
    expect(prose.rest).toBe("is how you call it.");
    const d = qwen(ctx);
    expect(d.push("<function=write_file>\n")).toEqual([]);
    expect(d.push("<parameter=path>")[0]).toEqual({ kind: "call", name: "write_file" });
  });

  it("fails a region that holds something else, keeping its text", () => {
    const junk = decodeEverySplit(qwen, TOOLS, "\nI will call <b>it</b>\n");
    expect(junk.calls).toEqual([]);
    expect(junk.regionFail).toEqual({ type: "malformed", raw: "I will call <b>it</b>\n" });
    const unknownTag = decodeEverySplit(qwen, TOOLS, "<function=f>\n<param=x>1</param>\n</function>");
    expect(unknownTag.calls).toEqual([{ name: "f", fail: { type: "malformed", raw: "<function=f>\n<param=x>1</param>\n</function>" } }]);
    const empty = decodeEverySplit(qwen, TOOLS, "\n");
    expect(empty.regionFail?.type).toBe("malformed");
  });

  it("reports a call cut off by the end of the output as truncated, with its text", () => {
    const r = decodeEverySplit(qwen, TOOLS, "<function=write_file>\n<parameter=content>\npartial", false);
    expect(r.calls).toEqual([{ name: "write_file", fail: { type: "truncated", raw: "<function=write_file>\n<parameter=content>\npartial" } }]);
  });

  it("reports a value the region ends in as malformed", () => {
    const r = decodeEverySplit(qwen, TOOLS, "<function=write_file>\n<parameter=content>\nunfinished");
    expect(r.calls[0]!.fail?.type).toBe("malformed");
  });
});

describe("streaming granularity", () => {
  function pushAll(pieces: string[]): DecoderEvent[][] {
    const d = qwen(TOOLS);
    return pieces.map((p) => d.push(p));
  }

  function argsText(events: DecoderEvent[]): string {
    return events.map((e) => (e.kind === "args" ? e.text : "")).join("");
  }

  it("names the call as soon as its tag is complete", () => {
    const [first] = pushAll(["<function=write_file>"]);
    expect(first).toEqual([{ kind: "call", name: "write_file" }]);
  });

  it("streams a string value as it arrives, holding back only a possible trailing newline or tag", () => {
    const per = pushAll(["<function=write_file>\n<parameter=content>\n", "line one\n", "line two", "\n</para", "meter>\n"]);
    expect(argsText(per[0]!)).toBe('{"content": "');
    expect(argsText(per[1]!)).toBe("line one");
    expect(argsText(per[2]!)).toBe("\\nline two");
    expect(argsText(per[3]!)).toBe("");
    // The close tag is only known to be real once the next tag (or the region end) shows.
    expect(argsText(per[4]!)).toBe("");
  });

  it("holds a typed value until it is complete, and streams a union value once it can only be a string", () => {
    const d = qwen(TOOLS);
    expect(argsText(d.push("<function=calc>\n<parameter=b>\n12"))).toBe('{"b": ');
    expect(argsText(d.push("3\n</parameter>\n<parameter=note>\nnu"))).toBe('123, "note": ');
    expect(argsText(d.push("mbers are fun"))).toBe('"numbers are fun');
  });
});

describe("glm-4.5 syntax", () => {
  it("reads the name, then key/value pairs with or without newlines", () => {
    expect(callsOf(decodeEverySplit(glm, contextOf(), "get_weather\n<arg_key>city</arg_key>\n<arg_value>北京</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n"))).toEqual([
      { name: "get_weather", arguments: { city: "北京", days: 3 } },
    ]);
    expect(callsOf(decodeEverySplit(glm, contextOf(), "get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value>"))).toEqual([
      { name: "get_weather", arguments: { city: "Beijing" } },
    ]);
  });

  it("reads a call with no arguments", () => {
    expect(callsOf(decodeEverySplit(glm, contextOf(), "get_time"))).toEqual([{ name: "get_time", arguments: {} }]);
    expect(callsOf(decodeEverySplit(glm, contextOf(), "get_time\n"))).toEqual([{ name: "get_time", arguments: {} }]);
  });

  it("keeps whitespace of string values and JSON in untyped values", () => {
    const r = decodeEverySplit(glm, contextOf({ f: { type: "object", properties: { s: { type: "string" } } } }), 'f\n<arg_key>s</arg_key>\n<arg_value>    code    </arg_value>\n<arg_key>todos</arg_key>\n<arg_value>[{"id": "1", "task": "C:\\\\Users"}]</arg_value>');
    expect(callsOf(r)).toEqual([{ name: "f", arguments: { s: "    code    ", todos: [{ id: "1", task: "C:\\Users" }] } }]);
  });

  it("fails the call when text follows its arguments (the region holds one call)", () => {
    const text = "f\n<arg_key>a</arg_key><arg_value>1</arg_value>\ng\n";
    const r = decodeEverySplit(glm, contextOf(), text);
    expect(r.calls).toEqual([{ name: "f", fail: { type: "malformed", raw: text } }]);
  });
});

describe("minimax-m2 syntax", () => {
  it("reads several invokes, a closing tag inside a value and HTML", () => {
    const r = decodeEverySplit(minimax, contextOf(), '\n<invoke name="a">\n<parameter name="html"><div>Hi</div></parameter>\n</invoke>\n<invoke name="b">\n<parameter name="t">x </parameter> y</parameter>\n</invoke>\n');
    expect(callsOf(r)).toEqual([{ name: "a", arguments: { html: "<div>Hi</div>" } }, { name: "b", arguments: { t: "x </parameter> y" } }]);
    expect(r.calls.map((c) => c.raw)).toEqual(['<invoke name="a">\n<parameter name="html"><div>Hi</div></parameter>\n</invoke>', '<invoke name="b">\n<parameter name="t">x </parameter> y</parameter>\n</invoke>']);
  });
});

describe("deepseek-v3.2 DSML syntax", () => {
  it("types string=\"true\" values as text and string=\"false\" values as JSON, unless the schema says", () => {
    const ctx = contextOf({ f: { type: "object", properties: { n: { type: "integer" }, s: { type: "string" } } } });
    const r = decodeEverySplit(dsml, ctx, '\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="n" string="true">42</｜DSML｜parameter>\n<｜DSML｜parameter name="s" string="false">null</｜DSML｜parameter>\n<｜DSML｜parameter name="o" string="false">{"a": [1]}</｜DSML｜parameter>\n<｜DSML｜parameter name="t" string="true">{"a": [1]}</｜DSML｜parameter>\n</｜DSML｜invoke>\n');
    expect(callsOf(r)).toEqual([{ name: "f", arguments: { n: 42, s: "null", o: { a: [1] }, t: '{"a": [1]}' } }]);
  });

  it("reads arguments written as one JSON object inside the invoke", () => {
    const r = decodeEverySplit(dsml, contextOf(), '\n<｜DSML｜invoke name="search">\n{\n  "query": "WebNav", "topn": 10\n}\n</｜DSML｜invoke>\n');
    expect(callsOf(r)).toEqual([{ name: "search", arguments: { query: "WebNav", topn: 10 } }]);
  });
});
