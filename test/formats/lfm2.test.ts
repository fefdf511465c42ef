/**
 * lfm2: Liquid LFM2 / LFM2.5. The completion cases are data (fixtures/format-suites/lfm2.json, run
 * by suites.test.ts); here the reconstruction renders calls through LFM2.5's template (the LFM2 and
 * LFM2.5-Instruct templates render no tool calls, so they cannot be reconstructed) and parses them
 * back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("lfm2 reconstruction through the real template", () => {
  it("LFM2.5-8B-A1B.jinja", async () => {
    const r = await reconstruct("LFM2.5-8B-A1B.jinja");
    expect(r.format).toBe("lfm2");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.errors).toEqual([]);
  });
});
