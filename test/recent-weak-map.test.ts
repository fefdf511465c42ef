/** RecentWeakMap (src/request/recent-weak-map.ts): what is met again within a generation or two stays. */
import { describe, expect, it } from "vitest";
import { GENERATION, RecentWeakMap } from "../src/request/recent-weak-map.js";

describe("RecentWeakMap", () => {
  it("keeps an entry while it is met within about a generation of new keys, and lets go of it after two", () => {
    const map = new RecentWeakMap<object, number>();
    const kept = {};
    const dropped = {};
    map.set(kept, 1);
    map.set(dropped, 2);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < GENERATION - 1; i++) map.set({}, i);
      expect(map.get(kept)).toBe(1); // found in either table, and moved on to the current one
    }
    expect(map.get(dropped)).toBeUndefined();
    map.set(kept, 3); // a new value for a key of the current table
    expect(map.get(kept)).toBe(3);
  });

  it("tells keys apart by identity", () => {
    const map = new RecentWeakMap<object, string>();
    const a = [1];
    map.set(a, "a");
    expect(map.get([1])).toBeUndefined();
    expect(map.get(a)).toBe("a");
  });
});
