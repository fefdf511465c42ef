/**
 * The deep-frozen mark is a private field on values marked while extensible (readSharedJson's reads,
 * freezeDeep's), a WeakMap entry on values a caller froze first. Either way it must be invisible to
 * anything that lists or copies a value, and to templates, and both kinds must work for tojson.
 */
import { describe, expect, it } from "vitest";
import { compileTemplate, freezeDeep, isDeepFrozen, markedDeepFrozen } from "../../src/jinja/index.js";
import { isMarked, markOf, setMark } from "../../src/jinja/deep-frozen-marks.js";
import { readSharedJson } from "../../src/request/read-shared-json.js";

const TEXT = JSON.stringify({
  tools: [{ type: "function", function: { name: "stamp_probe", description: "d", parameters: { type: "object", properties: { a: { type: "string" } } } } }],
  messages: [{ role: "user", content: "stamp probe" }],
});

function visible(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  return {
    keys: Object.keys(value),
    own: Reflect.ownKeys(value).map(String),
    symbols: Object.getOwnPropertySymbols(value).length,
    names: Object.getOwnPropertyNames(value),
    json: JSON.stringify(value),
    clone: structuredClone(value),
    children: Object.values(value).map(visible),
  };
}

describe("deep-frozen marks", () => {
  it("cannot be seen on what readSharedJson reads", () => {
    const read = readSharedJson(TEXT) as { tools: object[] };
    expect(isDeepFrozen(read.tools)).toBe(true);
    expect(isMarked(read.tools[0]!)).toBe(true);
    expect(visible(read)).toEqual(visible(JSON.parse(TEXT)));
    expect(Object.isFrozen(read.tools[0])).toBe(true);
  });

  it("cannot be seen on what freezeDeep freezes, nor from a template", () => {
    const value = freezeDeep(JSON.parse(TEXT) as { tools: Record<string, unknown>[] });
    expect(isMarked(value.tools[0]!)).toBe(true);
    expect(visible(value)).toEqual(visible(JSON.parse(TEXT)));
    const t = compileTemplate("{% for tool in tools %}{{ tool | list }}|{{ tool.items() | list | length }}|{{ tool | tojson }}{% endfor %}");
    expect(t.render(value)).toBe(t.render(JSON.parse(TEXT) as Record<string, unknown>));
  });

  const callerFrozen = (): object => Object.freeze({ inner: Object.freeze({ a: Object.freeze([Object.freeze([1, 2])]) }) });

  it("works on a value a caller froze before it was marked", () => {
    const outer = callerFrozen();
    expect(isMarked(outer)).toBe(false);
    expect(isDeepFrozen(outer)).toBe(true);
    expect(markOf(outer)).toBe(true);
    setMark(outer, "text");
    expect(markOf(outer)).toBe("text");
    expect(markedDeepFrozen(outer)).toBe(outer);
    expect(markOf(outer)).toBe("text"); // marking again keeps what tojson kept
    expect(visible(outer)).toEqual(visible({ inner: { a: [[1, 2]] } }));
    const t = compileTemplate("{{ outer | tojson }}{{ outer | tojson }}");
    const fresh = callerFrozen();
    expect(t.render({ outer: fresh })).toBe('{"inner": {"a": [[1, 2]]}}{"inner": {"a": [[1, 2]]}}');
    expect(isMarked(fresh)).toBe(true);
    expect(t.render({ outer: fresh })).toBe('{"inner": {"a": [[1, 2]]}}{"inner": {"a": [[1, 2]]}}');
  });

  it("keeps texts on a stamped value after it is frozen", () => {
    const value = { a: 1 };
    setMark(value, true);
    Object.freeze(value);
    setMark(value, "kept");
    expect(markOf(value)).toBe("kept");
    const texts = new Map([["k", "v"]]);
    setMark(value, texts);
    expect(markOf(value)).toBe(texts);
    expect(Object.keys(value)).toEqual(["a"]);
  });
});
