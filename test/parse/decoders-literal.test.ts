/**
 * The streaming literal readers (src/parse/literal/value-reader.ts, extent-scanner.ts): Python
 * literals, JSON and Gemma 4's syntax to JSON text, the same for every split of the input.
 */
import { describe, expect, it } from "vitest";
import { LiteralValueReader, readLiteral } from "../../src/parse/literal/value-reader.js";
import { ValueExtentScanner } from "../../src/parse/literal/extent-scanner.js";
import { readNumber } from "../../src/parse/literal/json-text.js";
import type { LiteralDialectName } from "../../src/parse/literal/dialects.js";
import type { LiteralTop } from "../../src/parse/literal/value-reader.js";
import { cutAt, cutPositions } from "../helpers/rng.js";

interface Read {
  json: string;
  value: unknown;
  error?: string;
  rest: string;
}

function read(dialect: LiteralDialectName, top: LiteralTop, pieces: readonly string[]): Read {
  const r = new LiteralValueReader(dialect, top);
  let json = "";
  let rest = "";
  for (const p of pieces) {
    if (r.done || r.error !== undefined) {
      rest += p;
      continue;
    }
    rest += r.push(p);
    json += r.take();
  }
  if (top === "value") r.finish();
  json += r.take();
  const out: Read = { json, value: r.done ? r.value : undefined, rest };
  if (r.error !== undefined) out.error = r.error;
  return out;
}

/** Reads whole and at every single cut; all must agree (errors included). */
function readEverySplit(dialect: LiteralDialectName, top: LiteralTop, text: string): Read {
  const whole = read(dialect, top, [text]);
  for (const p of cutPositions(text)) expect(read(dialect, top, cutAt(text, [p])), `cut at ${p}`).toEqual(whole);
  expect(read(dialect, top, Array.from(text)), "code point by code point").toEqual(whole);
  return whole;
}

describe("Python literals", () => {
  it("writes JSON with json.dumps separators, keeping non-ASCII characters", () => {
    const r = readEverySplit("python", "value", "{'city': '深圳', 'n': [1, 2.5, -3], 'ok': True, 'x': None}");
    expect(r.json).toBe('{"city": "深圳", "n": [1, 2.5, -3], "ok": true, "x": null}');
    expect(r.value).toEqual({ city: "深圳", n: [1, 2.5, -3], ok: true, x: null });
  });

  it("reads both quote styles, triple quotes, raw strings and implicit concatenation", () => {
    expect(readEverySplit("python", "value", `"it's"`).value).toBe("it's");
    expect(readEverySplit("python", "value", `'say "hi"'`).json).toBe('"say \\"hi\\""');
    expect(readEverySplit("python", "value", "'''a\n'b'\n'''").value).toBe("a\n'b'\n");
    expect(readEverySplit("python", "value", `r'C:\\new\\d'`).value).toBe("C:\\new\\d");
    expect(readEverySplit("python", "value", `'ab' "cd"  'ef'`).value).toBe("abcdef");
    expect(readEverySplit("python", "value", "''").value).toBe("");
  });

  it("decodes Python escapes", () => {
    const r = readEverySplit("python", "value", String.raw`'\n\t\\\'\x41\u00e9\U0001F600\101\d\
x'`);
    expect(r.value).toBe("\n\t\\'Aé😀A\\dx");
  });

  it("reads Python numbers and writes them as JSON", () => {
    expect(readEverySplit("python", "value", "[1_000, 0x1F, 0o17, 0b101, .5, 5., +3, 1e3, 3.0]").json).toBe("[1000, 31, 15, 5, 0.5, 5.0, 3, 1e3, 3.0]");
    expect(readNumber("007", "python")).toBeUndefined();
    expect(readNumber("1.5", "json")).toEqual({ json: "1.5", value: 1.5 });
    expect(readNumber("+1", "json")).toBeUndefined();
  });

  it("turns tuples into arrays and non-string dict keys into strings", () => {
    expect(readEverySplit("python", "value", "{1: (2, 3), True: None, None: 1.5}").json).toBe('{"1": [2, 3], "true": null, "null": 1.5}');
  });

  it("accepts JSON spellings of constants", () => {
    expect(readEverySplit("python", "value", "[true, false, null]").value).toEqual([true, false, null]);
  });

  it("rejects what is not a literal", () => {
    expect(readEverySplit("python", "value", "[f(1)]").error).toMatch(/not a literal/);
    expect(readEverySplit("python", "value", "x + 1").error).toBeDefined();
    expect(readEverySplit("python", "value", "{1, 2}").error).toBeDefined();
    expect(readEverySplit("python", "value", "'unterminated").error).toBeDefined();
    expect(readEverySplit("python", "value", "[1, 2").error).toBeDefined();
  });
});

describe("keyword arguments", () => {
  it("reads up to the closing parenthesis and hands back the rest", () => {
    const r = readEverySplit("python", "args", "city='Paris', days=3, tags=['a'])] and more");
    expect(r.json).toBe('{"city": "Paris", "days": 3, "tags": ["a"]}');
    expect(r.value).toEqual({ city: "Paris", days: 3, tags: ["a"] });
    expect(r.rest).toBe("] and more");
  });

  it("reads no arguments and a trailing comma", () => {
    expect(readEverySplit("python", "args", ")").json).toBe("{}");
    expect(readEverySplit("python", "args", "a=1,)").value).toEqual({ a: 1 });
  });

  it("rejects positional arguments and broken values, reporting where", () => {
    expect(readEverySplit("python", "args", "'x')").error).toBeDefined();
    const broken = readEverySplit("python", "args", "a='x 'y', b='z')");
    expect(broken.error).toBeDefined();
    expect(broken.rest).toBe("y', b='z')");
  });
});

describe("JSON", () => {
  it("reads JSON escapes including \\/ and surrogate pairs", () => {
    const r = readEverySplit("json", "value", String.raw`{"a": "x\/y\ud83d\ude00\u00e9"}`);
    expect(r.value).toEqual({ a: "x/y😀é" });
    expect(r.json).toBe('{"a": "x/y😀é"}');
  });

  it("rejects Python spellings", () => {
    expect(readLiteral("{'a': 1}", ["json"])).toBeUndefined();
    expect(readLiteral("[True]", ["json"])).toBeUndefined();
    expect(readLiteral("{'a': 1}")).toEqual({ json: '{"a": 1}', value: { a: 1 } });
  });

  it("reads one bracketed value and stops at its closing bracket", () => {
    const r = readEverySplit("json", "bracketed", '{"k": [1, {"x": "}"}]}\n</end>');
    expect(r.value).toEqual({ k: [1, { x: "}" }] });
    expect(r.rest).toBe("\n</end>");
  });
});

describe("Gemma 4", () => {
  it("reads bare keys, <|\"|> strings, nested values", () => {
    const r = readEverySplit("gemma", "args", 'city:<|"|>São Paulo, "SP"<|"|>,n:3,ok:true,x:None,deep:{list:[<|"|>a<|"|>,1.5]}}<tool_call|>');
    expect(r.value).toEqual({ city: 'São Paulo, "SP"', n: 3, ok: true, x: null, deep: { list: ["a", 1.5] } });
    expect(r.json).toBe('{"city": "São Paulo, \\"SP\\"", "n": 3, "ok": true, "x": null, "deep": {"list": ["a", 1.5]}}');
    expect(r.rest).toBe("<tool_call|>");
  });

  it("keeps text that looks like a token inside a string", () => {
    expect(readEverySplit("gemma", "args", 'code:<|"|>a <| b <|" c<|"|>}').value).toEqual({ code: "a <| b <|\" c" });
  });
});

describe("streaming", () => {
  it("writes a long string's text before the string ends", () => {
    const r = new LiteralValueReader("python", "args");
    r.push("code='first part ");
    expect(r.take()).toBe('{"code": "first part ');
    r.push("second part");
    expect(r.take()).toBe("second part");
    expect(r.push("')")).toBe("");
    expect(r.take()).toBe('"}');
    expect(r.done).toBe(true);
  });
});

describe("dialects as data", () => {
  it("reads FunctionGemma's <escape> strings with the Gemma rules", () => {
    const r = readEverySplit("functiongemma", "args", "city:<escape>Paris, \"FR\" {x}<escape>,n:3,ok:false}<end_function_call>");
    expect(r.value).toEqual({ city: 'Paris, "FR" {x}', n: 3, ok: false });
    expect(r.json).toBe('{"city": "Paris, \\"FR\\" {x}", "n": 3, "ok": false}');
    expect(r.rest).toBe("<end_function_call>");
  });

  it("a key named __proto__ is an own member, as JSON.parse makes it", () => {
    const r = readEverySplit("python", "value", "{'__proto__': {'a': 1}}");
    expect(Object.keys(r.value as object)).toEqual(["__proto__"]);
    expect(JSON.stringify(r.value)).toBe(JSON.stringify(JSON.parse('{"__proto__": {"a": 1}}')));
  });
});

describe("extent: where a JSON value ends, without reading it", () => {
  function extent(pieces: readonly string[]): { end: number; kind: string | undefined; members: number[]; done: boolean } {
    const r = new ValueExtentScanner("json");
    let at = 0;
    let end = -1;
    for (const p of pieces) {
      const e = r.feed(p, 0);
      if (end < 0 && r.done) end = at + e;
      at += p.length;
    }
    r.finish();
    if (end < 0 && r.done) end = at;
    return { end, kind: r.kind, members: [...r.members], done: r.done };
  }

  it("finds the end of an object past brackets and escaped quotes in strings, the same at every cut", () => {
    const text = '{"a": "x}\\"]", "b": [1, {"c": null}]} tail';
    const whole = extent([text]);
    expect(whole).toEqual({ end: text.indexOf(" tail"), kind: "object", members: [1, 4, 6, 13, 15, 18], done: true });
    for (const p of cutPositions(text)) expect(extent(cutAt(text, [p])), `cut at ${p}`).toEqual(whole);
  });

  it("ends a scalar at the first character that cannot be part of it, or at the end of the input", () => {
    expect(extent(["-1.5e3, x"])).toMatchObject({ end: 6, kind: "scalar" });
    expect(extent(["tr", "ue"])).toMatchObject({ end: 4, kind: "scalar", done: true });
  });

  it("refuses a dialect whose strings it cannot skip by quote and backslash alone", () => {
    expect(() => new ValueExtentScanner("gemma")).toThrow(/single-character quotes with escapes/);
    expect(new ValueExtentScanner("python").feed("'a\\'b' tail", 0)).toBe(6);
  });

  it("knows an open string and its offset", () => {
    const r = new ValueExtentScanner("json");
    r.feed('{"k": "long', 0);
    expect(r.openString).toBe(6);
    expect(r.feedInString(" text without a quote")).toBe(true);
    expect(r.feedInString(' ends" }')).toBe(false);
    r.feed(' ends"}', 0);
    expect(r.done).toBe(true);
    expect(r.openString).toBeUndefined();
  });
});

describe("retyping quoted arguments (a dialect whose templates quote every value)", () => {
  it("holds a quoted value the caller types, and writes the typed JSON at its close, at every cut", () => {
    const text = "query:<escape>ramen<escape>,limit:<escape>5<escape>,flag:<escape>maybe<escape>}";
    const read = (pieces: readonly string[]) => {
      const r = new LiteralValueReader("functiongemma", "args", {
        retypeArgument: (name) => (name === "limit" || name === "flag" ? (t) => (/^\d+$/.test(t) ? { json: t, value: Number(t) } : undefined) : undefined),
      });
      let json = "";
      for (const p of pieces) {
        r.push(p);
        json += r.take();
      }
      return { json, value: r.value, done: r.done };
    };
    const whole = read([text]);
    expect(whole).toEqual({ json: '{"query": "ramen", "limit": 5, "flag": "maybe"}', value: { query: "ramen", limit: 5, flag: "maybe" }, done: true });
    for (const p of cutPositions(text)) expect(read(cutAt(text, [p])), `cut at ${p}`).toEqual(whole);
  });
});
