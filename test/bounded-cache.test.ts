/** BoundedCache (src/bounded-cache.ts): what it pushes out is let go of, keys included. */
import { describe, expect, it } from "vitest";
import { BoundedCache } from "../src/bounded-cache.js";
import { collected } from "./helpers/collected.js";

describe("BoundedCache", () => {
  it("keeps at most its limit of entries, the oldest out first", () => {
    const cache = new BoundedCache<string, number>(2);
    let computed = 0;
    for (const k of ["a", "b", "c", "a"]) cache.get(k, () => ++computed);
    expect(computed).toBe(4); // "a" was pushed out by "c", so computed again
    expect(cache.size.entries).toBe(2);
  });

  it("holds no key it pushed out: its queue lets go of them at once", async () => {
    const cache = new BoundedCache<object, number>(2);
    // A key object kept only by the cache.
    let key: object | undefined = { big: "y".repeat(1000) };
    const ref = new WeakRef(key);
    cache.get(key, () => 2);
    key = undefined;
    for (let i = 0; i < 4; i++) cache.get({ i }, () => i);
    expect(await collected(ref)).toBe(true);
  });
});
