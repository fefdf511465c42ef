/**
 * `chatwire serve`'s V8 growth factor (src/cli/heap-growth.ts). The flag is never set in this worker:
 * V8's flags are the process's, and other test files may share it.
 */
import { describe, expect, it } from "vitest";
import { heapGrowthGiven, limitHeapGrowth } from "../src/cli/heap-growth.js";

describe("limitHeapGrowth (chatwire serve's V8 old-space growth)", () => {
  it("sees a growth factor the user gave in every form node starts with", () => {
    for (const arg of ["--heap-growing-percent=80", "--heap_growing_percent=80", "-heap-growing-percent=80", "-heap_growing-percent=0"]) {
      expect(heapGrowthGiven(["--enable-source-maps", arg])).toBe(true);
    }
    expect(heapGrowthGiven(["--enable-source-maps", "--max-old-space-size=512", "--heap-growing-percentage=5"])).toBe(false);
  });

  it("sets serve's factor only when the user gave none", () => {
    const set: string[] = [];
    expect(limitHeapGrowth(["-heap-growing-percent=80"], (f) => set.push(f))).toBe(false);
    expect(set).toEqual([]);
    expect(limitHeapGrowth(["--max-old-space-size=512"], (f) => set.push(f))).toBe(true);
    expect(set).toEqual(["--heap-growing-percent=50"]);
  });
});
