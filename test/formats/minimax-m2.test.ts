/**
 * minimax-m2: MiniMax-M2. The completion cases are data (fixtures/format-suites/minimax-m2.json,
 * run by suites.test.ts); here the reconstruction renders calls through the real template and
 * parses them back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("minimax-m2 reconstruction through the real template", () => {
  it("MiniMax-M2.jinja", async () => {
    const r = await reconstruct("MiniMax-M2.jinja");
    expect(r.format).toBe("minimax-m2");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.errors).toEqual([]);
  });
});
