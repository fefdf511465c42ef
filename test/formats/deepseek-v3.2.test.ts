/**
 * deepseek-v3.2: DeepSeek V3.2 DSML. The completion cases are data (fixtures/format-
 * suites/deepseek-v3.2.json, run by suites.test.ts); here the reconstruction renders calls through
 * the real template and parses them back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("deepseek-v3.2 reconstruction through the real template", () => {
  it("deepseek-ai-DeepSeek-V3.2.jinja", async () => {
    const r = await reconstruct("deepseek-ai-DeepSeek-V3.2.jinja");
    expect(r.format).toBe("deepseek-v3.2");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.errors).toEqual([]);
  });
});
