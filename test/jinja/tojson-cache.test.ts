/**
 * `tojson` results are reused across renders of the same objects (the tool list a server renders on
 * every turn). The reuse must never go stale: any change to the object between renders is seen.
 */
import { describe, expect, it } from "vitest";
import { compileTemplate, freezeDeep } from "../../src/jinja/index.js";
import { PyFloat } from "../../src/jinja/py-float.js";

const t = compileTemplate("{% for tool in tools %}{{ tool | tojson }}\n{% endfor %}");

describe("tojson reuse across renders", () => {
  it("sees every kind of change to a shared object", () => {
    const tools: Record<string, unknown>[] = [{ name: "f", parameters: { type: "object", properties: { a: { type: "string" } } } }];
    const render = () => t.render({ tools });
    expect(render()).toBe('{"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}\n');
    expect(render()).toBe(render()); // reused
    ((tools[0]!.parameters as Record<string, unknown>).properties as Record<string, unknown>).a = { type: "integer" };
    expect(render()).toContain('"a": {"type": "integer"}');
    (tools[0]!.parameters as Record<string, unknown>).required = ["a"];
    expect(render()).toContain('"required": ["a"]');
    delete (tools[0]!.parameters as Record<string, unknown>).required;
    expect(render()).not.toContain("required");
    tools[0]!.name = "g";
    expect(render()).toContain('"name": "g"');
    tools[0]!.extra = [1, 2];
    expect(render()).toContain('"extra": [1, 2]');
    (tools[0]!.extra as unknown[]).push(3);
    expect(render()).toContain('"extra": [1, 2, 3]');
    (tools[0]!.extra as unknown[])[0] = new PyFloat(1);
    expect(render()).toContain('"extra": [1.0, 2, 3]');
    tools[0]!.extra = null;
    expect(render()).toContain('"extra": null');
  });

  it("keeps one object's texts for each options apart within a render, in either order", () => {
    const both = compileTemplate("{{ x | tojson }}|{{ x | tojson(indent=1) }}|{{ x | tojson }}|{{ x | tojson(indent=1) }}");
    const indentFirst = compileTemplate("{{ x | tojson(indent=1) }}|{{ x | tojson }}|{{ x | tojson(indent=1) }}");
    for (let i = 0; i < 3; i++) {
      const x = { a: [1, "b"] }; // a new unfrozen object each time, and the same one again
      expect(both.render({ x })).toBe('{"a": [1, "b"]}|{\n "a": [\n  1,\n  "b"\n ]\n}|{"a": [1, "b"]}|{\n "a": [\n  1,\n  "b"\n ]\n}');
      expect(indentFirst.render({ x })).toBe('{\n "a": [\n  1,\n  "b"\n ]\n}|{"a": [1, "b"]}|{\n "a": [\n  1,\n  "b"\n ]\n}');
      expect(both.render({ x })).toBe(both.render({ x }));
    }
  });

  it("keeps key order changes and same-valued new strings apart", () => {
    const tool: Record<string, unknown> = { a: 1, b: 2 };
    expect(t.render({ tools: [tool] })).toBe('{"a": 1, "b": 2}\n');
    delete tool.a;
    tool.a = 1; // same keys and values, new order
    expect(t.render({ tools: [tool] })).toBe('{"b": 2, "a": 1}\n');
    tool.b = "2";
    expect(t.render({ tools: [tool] })).toBe('{"b": "2", "a": 1}\n');
  });

  it("shares deeply frozen objects without checking and still prints them exactly", () => {
    const tools = freezeDeep([{ name: "f", n: new PyFloat(2), s: "深圳" }]);
    expect(t.render({ tools })).toBe('{"name": "f", "n": 2.0, "s": "深圳"}\n');
    expect(t.render({ tools })).toBe('{"name": "f", "n": 2.0, "s": "深圳"}\n');
  });

  it("prints a deeply frozen object alike on every use, whatever the options and their order", () => {
    // A frozen object's text is kept from its second use on, per options (frozenText's states).
    const both = compileTemplate("{{ x|tojson }}|{{ x|tojson(indent=1) }}|{{ x|tojson(ensure_ascii=true) }}");
    const expected = '{"a": [1, "é"]}|{\n "a": [\n  1,\n  "é"\n ]\n}|{"a": [1, "\\u00e9"]}';
    const x = freezeDeep({ a: [1, "é"] });
    for (let i = 0; i < 4; i++) expect(both.render({ x })).toBe(expected);
    const y = freezeDeep({ a: [1, "é"] });
    const indentFirst = compileTemplate("{{ y|tojson(indent=1) }}|{{ y|tojson(indent=1) }}");
    expect(indentFirst.render({ y })).toBe('{\n "a": [\n  1,\n  "é"\n ]\n}|{\n "a": [\n  1,\n  "é"\n ]\n}');
    for (let i = 0; i < 3; i++) expect(both.render({ x: y })).toBe(expected);
  });
});

describe("tojson escapes as json.dumps", () => {
  // Lone surrogates cannot go through test/jinja/cases (its generator writes UTF-8), so the expected
  // text is Python's, from `.ref/bin/python -c 'import json; x = {"k\ud800": ["a\udc00b",
  // "\ud83d\ude00", "\\ud800", "\x7f"]}; print(ascii(json.dumps(x, ensure_ascii=False)),
  // ascii(json.dumps(x, ensure_ascii=True)))'`.
  const x = { "k\ud800": ["a\udc00b", "\ud83d\ude00", "\\ud800", "\x7f"] };
  it("keeps lone surrogates and DEL with ensure_ascii=False", () => {
    expect(compileTemplate("{{ x|tojson }}").render({ x })).toBe('{"k\ud800": ["a\udc00b", "\ud83d\ude00", "\\\\ud800", "\x7f"]}');
  });
  it("escapes every code unit outside \\x20-\\x7e with ensure_ascii=True, DEL included", () => {
    expect(compileTemplate("{{ x|tojson(ensure_ascii=true) }}").render({ x })).toBe('{"k\\ud800": ["a\\udc00b", "\\ud83d\\ude00", "\\\\ud800", "\\u007f"]}');
    // A long string takes the counted path (escapeString).
    const long = "\x7f\u00e9".repeat(600);
    expect(compileTemplate("{{ s|tojson(ensure_ascii=true) }}").render({ s: long })).toBe('"' + "\\u007f\\u00e9".repeat(600) + '"');
  });
});

describe("tojson keys", () => {
  it("prints every key exactly, past the kept keys' bound and length, with and without escapes", () => {
    // keyText keeps up to 1024 short keys for `: ` and ensure_ascii=False; these pass both bounds.
    const d: Record<string, number> = {};
    for (let i = 0; i < 1100; i++) d[`k"${i}\n`] = i;
    d["x".repeat(65) + '"'] = -1;
    const expected = "{" + Object.entries(d).map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ") + "}";
    const t2 = compileTemplate("{{ d|tojson }}|{{ d|tojson(separators=(',', '=')) }}");
    const compact = "{" + Object.entries(d).map(([k, v]) => `${JSON.stringify(k)}=${v}`).join(",") + "}";
    for (let i = 0; i < 2; i++) expect(t2.render({ d: { ...d } })).toBe(expected + "|" + compact);
  });
});
