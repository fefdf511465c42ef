import { describe, expect, it } from "vitest";
import { limitHeapGrowth } from "../src/cli/heap-growth.js";

describe("limitHeapGrowth (chatwire serve's V8 old-space growth)", () => {
  it("leaves a growth factor the user gave on the command line or in NODE_OPTIONS", () => {
    expect(limitHeapGrowth(["--heap-growing-percent=80"], "")).toBe(false);
    expect(limitHeapGrowth(["--heap_growing_percent", "80"], "")).toBe(false);
    expect(limitHeapGrowth([], "--max-old-space-size=512 --heap-growing-percent=20")).toBe(false);
  });

  it("sets it otherwise, other flags notwithstanding", () => {
    expect(limitHeapGrowth(["--enable-source-maps"], "--max-old-space-size=512 --heap-growing-percentage")).toBe(true);
  });
});
