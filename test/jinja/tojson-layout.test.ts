/**
 * tojson in json.dumps's default layout (built from kept key pieces, read with for-in): what the general
 * builder gives, whatever else the process has done to Object.prototype. Expected strings: Python's
 * json.dumps(x, ensure_ascii=False).
 */
import { afterEach, describe, expect, it } from "vitest";
import { compileTemplate } from "../../src/jinja/index.js";

const tojson = (x: unknown, args = "") => compileTemplate(`{{ x | tojson${args} }}`).render({ x });

describe("tojson's default layout", () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).polluted;
  });

  it("writes strings bare between quote-carrying separators, escapes the others", () => {
    const x = { a: "x", b: 'q"', c: ["s", 1, "t\n", null, true], d: {}, e: [], f: "", g: { h: "i" } };
    expect(tojson(x)).toBe('{"a": "x", "b": "q\\"", "c": ["s", 1, "t\\n", null, true], "d": {}, "e": [], "f": "", "g": {"h": "i"}}');
    expect(tojson(["a", "b"])).toBe('["a", "b"]');
    expect(tojson({ "k\u0001": "v" })).toBe('{"k\\u0001": "v"}');
  });

  it("writes a type member whole after any lead, and other type values as any member", () => {
    const x = {
      type: "object",
      properties: {
        a: { type: "string" },
        b: { description: "d", type: "integer" },
        c: { n: 1, type: "array", items: { type: "boolean" } },
        d: { type: "custom" },
        e: { type: 'q"x' },
        f: { type: ["number", "null"] },
        g: { type: "function", function: { type: "null" } },
      },
    };
    expect(tojson(x)).toBe(
      '{"type": "object", "properties": {"a": {"type": "string"}, "b": {"description": "d", "type": "integer"}, "c": {"n": 1, "type": "array", "items": {"type": "boolean"}}, "d": {"type": "custom"}, "e": {"type": "q\\"x"}, "f": {"type": ["number", "null"]}, "g": {"type": "function", "function": {"type": "null"}}}}',
    );
    expect(tojson({ type: "string", x: [1], y: { type: "object" } }, "(indent=2)")).toBe('{\n  "type": "string",\n  "x": [\n    1\n  ],\n  "y": {\n    "type": "object"\n  }\n}');
  });

  it("writes a type member with whatever follows it: a bare or other value, a long key, the closing", () => {
    const long = "k".repeat(70);
    const x = {
      type: "object",
      [long]: "v",
      n: { type: "integer", minimum: 0 },
      e: { type: "string", pattern: 'a"b' },
      l: { type: "array", items: [{ type: "null" }] },
      z: { a: 1, type: "boolean" },
      y: { q: "s", type: "number", r: {} },
      w: { type: "function" },
    };
    const expected = `{"type": "object", "${long}": "v", "n": {"type": "integer", "minimum": 0}, "e": {"type": "string", "pattern": "a\\"b"}, "l": {"type": "array", "items": [{"type": "null"}]}, "z": {"a": 1, "type": "boolean"}, "y": {"q": "s", "type": "number", "r": {}}, "w": {"type": "function"}}`;
    // Twice: the second time from the kept pieces.
    expect(tojson(x)).toBe(expected);
    expect(tojson(x)).toBe(expected);
  });

  it("escapes as json.dumps does: short forms, \\u00XX for other controls, the rest kept (lone surrogates too)", () => {
    const x = { a: 'l1\nl2\t"q" \\ \u0000\u0001\u001f\u007f \u2028\u2029 é 😀 \b\f\r', b: ["x\ny", "\u000b"], c: "\ud800 \n" };
    expect(tojson(x)).toBe(
      '{"a": "l1\\nl2\\t\\"q\\" \\\\ \\u0000\\u0001\\u001f\u007f \u2028\u2029 é 😀 \\b\\f\\r", "b": ["x\\ny", "\\u000b"], "c": "\ud800 \\n"}',
    );
  });

  it("lists only own keys when Object.prototype has an enumerable property", () => {
    (Object.prototype as Record<string, unknown>).polluted = "no";
    expect(tojson({ a: "x", b: 2 })).toBe('{"a": "x", "b": 2}');
    expect(tojson(Object.assign(Object.create(null), { a: 1 }))).toBe('{"a": 1}');
  });

  it("gives the same text for other options as before", () => {
    expect(tojson({ b: "x", a: ["y"] }, "(sort_keys=true)")).toBe('{"a": ["y"], "b": "x"}');
    expect(tojson({ a: "x" }, "(indent=2)")).toBe('{\n  "a": "x"\n}');
  });
});
