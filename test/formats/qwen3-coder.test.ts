/**
 * qwen3-coder: Qwen3-Coder, Qwen3.5, Nemotron 3 Nano, Step-3.5. The completion cases are data
 * (fixtures/format-suites/qwen3-coder.json, run by suites.test.ts); here the reconstruction renders
 * calls through the real templates and parses them back.
 */
import { describe, expect, it } from "vitest";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

describe("qwen3-coder reconstruction through the real templates", () => {
  for (const file of ["Qwen3-Coder.jinja", "Qwen3.5-4B.jinja", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja", "StepFun3.5-Flash.jinja", "stepfun-ai-Step-3.5-Flash.jinja"]) {
    it(file, async () => {
      const r = await reconstruct(file);
      expect(r.format).toBe("qwen3-coder");
      expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
      expect(r.result.errors).toEqual([]);
    });
  }
});
