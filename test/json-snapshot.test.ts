/**
 * The record check behind tojson's reuse and kept-tools' recognition of a caller's plain tools
 * (src/jinja/json-snapshot.ts): any change anywhere is a miss, and only plain data ever matches.
 */
import { describe, expect, it } from "vitest";
import { matchesRecord, recordValue } from "../src/jinja/json-snapshot.js";
import { PyFloat } from "../src/jinja/py-float.js";
import { iterator, newDict, tuple } from "../src/jinja/values.js";

const value = () => ({ a: "x", n: 1, f: new PyFloat(2), l: [1, "two", null, true, { deep: [3] }], t: tuple([1, 2]), e: {}, z: [] as unknown[] });

describe("matchesRecord", () => {
  it("matches a new value equal in every key and leaf (a PyFloat by its number)", () => {
    const rec = recordValue(value())!;
    expect(matchesRecord(value(), rec)).toBe(true);
  });

  it("misses on any edit: a leaf, a key added, removed or renamed, a reorder, a list for a tuple, a PyFloat for a number", () => {
    const rec = recordValue(value())!;
    const edits: Array<(v: ReturnType<typeof value>) => unknown> = [
      (v) => (v.a = "y"),
      (v) => ((v.l[4] as { deep: number[] }).deep[0] = 4),
      (v) => ((v.l[4] as Record<string, unknown>).extra = 1),
      (v) => delete (v as Partial<typeof v>).n,
      (v) => ((v.e as Record<string, unknown>).k = undefined),
      (v) => v.z.push(1),
      (v) => (v.f = new PyFloat(3)),
      (v) => ((v as Record<string, unknown>).f = 2),
      (v) => ((v as Record<string, unknown>).n = new PyFloat(1)),
      (v) => ((v as Record<string, unknown>).t = [1, 2]),
      (v) => ((v as Record<string, unknown>).l = tuple([1, "two", null, true, { deep: [3] }])),
      (v) => ((v as Record<string, unknown>).z = iterator([])),
      (v) => ((v as Record<string, unknown>).e = newDict()),
      (v) => ((v as Record<string, unknown>).a = ["x"]),
      (v) => ((v as Record<string, unknown>).e = []),
    ];
    for (const edit of edits) {
      const v = value();
      edit(v);
      expect(matchesRecord(v, rec), String(edit)).toBe(false);
    }
    // Same keys, another order.
    const { a, ...rest } = value();
    expect(matchesRecord({ ...rest, a }, rec)).toBe(false);
  });

  it("misses a dict with an extra key even when its name and value are what the record holds next", () => {
    // The check compares a dict's entries up to where its record ends: an extra key runs into the next
    // item's entries, here the string "b" and the number 2 that follow it in the list.
    const rec = recordValue([{ a: 1 }, "b", 2, { c: [1] }])!;
    expect(matchesRecord([{ a: 1 }, "b", 2, { c: [1] }], rec)).toBe(true);
    expect(matchesRecord([{ a: 1, b: 2 }, "b", 2, { c: [1] }], rec)).toBe(false);
    expect(matchesRecord([{}, "b", 2, { c: [1] }], rec)).toBe(false);
    expect(matchesRecord([{ a: 1 }, "b", 2, { c: [1], d: 1 }], rec)).toBe(false);
    expect(matchesRecord([{ a: 1 }, "b", 2, { c: [1] }, 1], rec)).toBe(false);
  });

  it("tells a container from a leaf either way, and matches a recorded leaf by itself", () => {
    const rec = recordValue({ a: { b: 1 }, l: [[]], s: "x" })!;
    expect(matchesRecord({ a: { b: 1 }, l: [[]], s: "x" }, rec)).toBe(true);
    for (const v of [{ a: 1, l: [[]], s: "x" }, { a: { b: 1 }, l: [null], s: "x" }, { a: { b: 1 }, l: [[]], s: ["x"] }, { a: [1], l: [[]], s: "x" }, { a: { b: 1 }, l: [{}], s: "x" }]) {
      expect(matchesRecord(v, rec), JSON.stringify(v)).toBe(false);
    }
    expect(matchesRecord(new Date(0), recordValue({})!)).toBe(false);
    expect(matchesRecord("x", recordValue("x")!)).toBe(true);
    expect(matchesRecord("y", recordValue("x")!)).toBe(false);
    expect(matchesRecord(["x"], recordValue("x")!)).toBe(false);
    expect(matchesRecord(new PyFloat(1), recordValue(new PyFloat(1))!)).toBe(true);
    expect(matchesRecord(1, recordValue(new PyFloat(1))!)).toBe(false);
  });

  it("records nothing that is not plain data", () => {
    expect(recordValue({ g: iterator([1]) })).toBeUndefined();
    expect(recordValue({ d: newDict() })).toBeUndefined();
    expect(recordValue({ f: () => 1 })).toBeUndefined();
  });
});
