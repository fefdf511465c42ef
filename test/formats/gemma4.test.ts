/**
 * gemma4: Gemma 4. The completion cases are data (fixtures/format-suites/gemma4.json, run by
 * suites.test.ts); here the reconstruction renders calls through the real templates and parses them
 * back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("gemma4 reconstruction through the real templates", () => {
  for (const file of ["google-gemma-4-31B-it.jinja", "google-gemma-4-31B-it-interleaved.jinja"]) {
    it(file, async () => {
      const r = await reconstruct(file);
      expect(r.format).toBe("gemma4");
      expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
      expect(r.result.errors).toEqual([]);
    });
  }
});
