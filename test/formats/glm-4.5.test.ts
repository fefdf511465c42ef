/**
 * glm-4.5: GLM-4.5 / 4.6 / 4.7, GLM-5. The completion cases are data (fixtures/format-
 * suites/glm-4.5.json, run by suites.test.ts); here the reconstruction renders calls through the
 * real templates and parses them back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("glm-4.5 reconstruction through the real templates", () => {
  for (const file of ["GLM-4.6.jinja", "GLM-4.7-Flash.jinja"]) {
    it(file, async () => {
      const r = await reconstruct(file);
      expect(r.format).toBe("glm-4.5");
      expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
      expect(r.result.message.reasoning_content).toBe("The user wants two things.");
      expect(r.result.errors).toEqual([]);
    });
  }
});
