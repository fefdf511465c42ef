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

  it("records nothing that is not plain data", () => {
    expect(recordValue({ g: iterator([1]) })).toBeUndefined();
    expect(recordValue({ d: newDict() })).toBeUndefined();
    expect(recordValue({ f: () => 1 })).toBeUndefined();
  });
});
