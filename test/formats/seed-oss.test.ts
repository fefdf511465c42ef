/**
 * seed-oss: ByteDance Seed-OSS. The completion cases are data (fixtures/format-suites/seed-
 * oss.json, run by suites.test.ts); here the reconstruction renders calls through the real template
 * and parses them back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("seed-oss reconstruction through the real template", () => {
  it("ByteDance-Seed-OSS.jinja", async () => {
    const r = await reconstruct("ByteDance-Seed-OSS.jinja");
    expect(r.format).toBe("seed-oss");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.message.reasoning_content).toBe("The user wants two things.");
    expect(r.result.errors).toEqual([]);
  });
});
