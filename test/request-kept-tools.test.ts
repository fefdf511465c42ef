/**
 * A caller's plain `tools` met again as new objects are replaced by a deeply frozen copy kept from an
 * earlier request (src/request/kept-tools.ts). The copy must never stand for a list that differs from
 * it in anything a template or a schema check can see, and the cache must stay bounded.
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../src/errors.js";
import { compileTemplate } from "../src/jinja/index.js";
import { PyFloat } from "../src/jinja/py-float.js";
import { normalizeTools, readJson, readSharedJson } from "../src/request/index.js";
import { keptToolsSize } from "../src/request/kept-tools.js";

const TEXT = JSON.stringify([
  { type: "function", function: { name: "kt_search", description: "Search the docs.", parameters: { type: "object", properties: { q: { type: "string" }, n: { type: "integer", default: 5 } }, required: ["q"] } } },
  { type: "function", function: { name: "kt_open", description: "Open a page 深圳 🕐", parameters: { type: "object", properties: { url: { type: "string" } } } } },
]);

const template = compileTemplate("{% for tool in tools %}{{ tool | tojson }}|{{ tool.function.description }}\n{% endfor %}");
const render = (tools: unknown[]) => template.render({ tools: normalizeTools(tools) });

describe("plain tool lists kept by content", () => {
  it("renders a repeated list exactly as the caller's objects, and the third sighting uses a frozen copy", () => {
    const expected = render(JSON.parse(TEXT) as unknown[]);
    for (let i = 0; i < 4; i++) expect(render(JSON.parse(TEXT) as unknown[])).toBe(expected);
    const normalised = normalizeTools(JSON.parse(TEXT))!;
    expect(Object.isFrozen(normalised[0])).toBe(true);
    expect(Object.isFrozen(normalised[0]!.function.parameters)).toBe(true);
  });

  it("sees every edit of a list equal to a kept one", () => {
    const edits: ((tools: any[]) => void)[] = [
      (t) => (t[0].function.description = "Search the docs!"),
      (t) => (t[0].function.parameters.properties.n.default = 6),
      (t) => (t[0].function.parameters.properties.n.default = new PyFloat(5)),
      (t) => (t[0].function.parameters.required = ["q", "n"]),
      (t) => delete t[1].function.parameters.properties.url.type,
      (t) => (t[1].function.extra = null),
      (t) => (t[1].function.parameters.properties = { url: { type: "string" }, lang: { type: "string" } }),
      (t) => {
        const { description, ...rest } = t[0].function; // same keys and values, another order
        t[0].function = { ...rest, description };
      },
    ];
    for (let i = 0; i < 3; i++) render(JSON.parse(TEXT) as unknown[]);
    for (const edit of edits) {
      const tools = JSON.parse(TEXT) as any[];
      edit(tools);
      // The reference: the template given the caller's objects directly, without normalizeTools.
      const reference = template.render({ tools: clone(tools) });
      expect(reference).not.toBe(render(JSON.parse(TEXT) as unknown[]));
      for (let i = 0; i < 3; i++) expect(render(clone(tools) as unknown[])).toBe(reference);
    }
  });

  it("recognises two lists sent in turn, each as its own copy (the list used last is only tried first)", () => {
    const other = JSON.stringify([{ type: "function", function: { name: "kt_other", parameters: { type: "object" } } }]);
    for (let i = 0; i < 2; i++) {
      normalizeTools(JSON.parse(TEXT));
      normalizeTools(JSON.parse(other));
    }
    for (let i = 0; i < 2; i++) {
      const a = normalizeTools(JSON.parse(TEXT))!;
      const b = normalizeTools(JSON.parse(other))!;
      expect(a[0]!.function.name).toBe("kt_search");
      expect(b[0]!.function.name).toBe("kt_other");
      expect(Object.isFrozen(a[0]) && Object.isFrozen(b[0])).toBe(true);
      expect(normalizeTools(JSON.parse(TEXT))).toBe(a); // the same frozen array: normalised once
    }
  });

  it("keeps PyFloat as a float and reads an edited one", () => {
    const text = '[{"type": "function", "function": {"name": "kt_float", "parameters": {"type": "object", "properties": {"t": {"type": "number", "default": 1.0}}}}}]';
    for (let i = 0; i < 3; i++) expect(render(readJson(text) as unknown[])).toContain('"default": 1.0}');
    const edited = readJson(text) as any[];
    edited[0].function.parameters.properties.t.default = new PyFloat(2);
    expect(render(edited)).toContain('"default": 2.0}');
    expect(render(readJson(text) as unknown[])).toContain('"default": 1.0}');
  });

  it("leaves what it cannot copy exactly to the caller's objects", () => {
    // Integer-like keys (readJson keeps the text's order in a Proxy), undefined values, class instances.
    const digits = '[{"type": "function", "function": {"name": "kt_digits", "parameters": {"type": "object", "properties": {"b": {}, "10": {}, "a": {}}}}}]';
    for (let i = 0; i < 3; i++) expect(render(readJson(digits) as unknown[])).toContain('"properties": {"b": {}, "10": {}, "a": {}}');
    class Odd {
      type = "string";
    }
    for (let i = 0; i < 3; i++) {
      const tools = [{ type: "function", function: { name: "kt_odd", description: undefined, parameters: { type: "object" } } }];
      expect(Object.isFrozen(normalizeTools(tools)![0])).toBe(false);
      const odd = [{ type: "function", function: { name: "kt_odd2", x: new Odd() } }];
      expect(() => render(odd)).toThrow(/not JSON serializable/);
    }
  });

  it("gives the same error, naming the field, however often a bad list is sent", () => {
    const bad = '[{"type": "function", "function": {"name": "kt_bad", "parameters": {"type": "object", "properties": {"x": {"type": "strin"}}}}}]';
    for (let i = 0; i < 4; i++) {
      let err: unknown;
      try {
        normalizeTools(JSON.parse(bad));
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ChatwireError);
      expect((err as ChatwireError).message).toMatch(/^tools\[0\]\.function\.parameters: /);
    }
  });

  it("normalises a list that cannot change once: the same frozen array for every render, errors every time", () => {
    const frozen = readSharedJson(`{"messages": [], "tools": ${TEXT}}`) as { tools: unknown[] };
    const first = normalizeTools(frozen.tools)!;
    expect(normalizeTools(frozen.tools)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(template.render({ tools: first })).toBe(template.render({ tools: JSON.parse(TEXT) as unknown[] }));
    const bad = readSharedJson('{"tools": [{"type": "function", "function": {"name": "kt_dup"}}, {"type": "function", "function": {"name": "kt_dup"}}]}') as { tools: unknown[] };
    for (let i = 0; i < 3; i++) expect(() => normalizeTools(bad.tools)).toThrow(/tools\[1\]\.function\.name: duplicate tool name "kt_dup"/);
    for (let i = 0; i < 3; i++) expect(() => normalizeTools(bad.tools, "input.tools")).toThrow(/^input\.tools\[1\]/);
  });

  it("counts only the versions it still holds: a version pushed out of its slot leaves the total", () => {
    // Versions of one list (same tool names, same size), each sent twice so that each is kept; a slot
    // holds the last few, so after many versions the total is what a full slot weighs.
    const feed = (from: number, to: number): number => {
      for (let i = from; i < to; i++) {
        const text = `[{"type": "function", "function": {"name": "kt_versioned", "description": "version ${String(i).padStart(3, "0")}"}}]`;
        for (let k = 0; k < 2; k++) normalizeTools(JSON.parse(text));
      }
      return keptToolsSize().weight;
    };
    const full = feed(0, 8);
    expect(feed(8, 64)).toBe(full);
  });

  it("holds at most 16 MB by its estimate, however many distinct lists it is fed", () => {
    const filler = "x".repeat(2000);
    for (let i = 0; i < 4000; i++) {
      const text = `[{"type": "function", "function": {"name": "kt_many${i}", "description": "${filler}"}}]`;
      for (let k = 0; k < 2; k++) normalizeTools(JSON.parse(text));
    }
    const { slots, weight } = keptToolsSize();
    expect(weight).toBeLessThanOrEqual(16 << 20);
    expect(slots).toBeLessThanOrEqual(1024);
  });
});

/** A new copy of plain data, PyFloat kept (a new instance), key order kept. */
function clone(v: unknown): unknown {
  if (v instanceof PyFloat) return new PyFloat(v.value);
  if (Array.isArray(v)) return v.map(clone);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  return v;
}
