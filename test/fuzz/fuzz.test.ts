/**
 * The parse fuzzer in CI (harness.ts says what is checked): a seeded, bounded run over every
 * registered format (families added to the registry are included by listFormats()), in a child process
 * with a time limit so that a hang fails and names the case it hung on. `npm run fuzz` runs the same
 * generator with a bigger budget (scripts/fuzz.mjs).
 *
 * Budget: CASES per format (38 formats) and the growth check at GROWTH characters, about 1-2 minutes on
 * the CI machine.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBounded } from "../helpers/bounded-child.js";
import { FIXTURES } from "../helpers/fixtures.js";
import type { FuzzFailure } from "./harness.js";

const CASES = 300;
const GROWTH = 3000;
const SEED = 20261201;

/**
 * Failures still open, by kind and format (`"lost harmony"`), each with why: a known limit of what the
 * engine can decide from a format's description, not noise. None today: add one only with a reason.
 */
const KNOWN: Record<string, string> = {};

interface Report {
  cases: number;
  byFormat: Record<string, number>;
  counts: Record<string, number>;
  failures: FuzzFailure[];
  growth?: { checked: number; failures: number; worst: unknown[] };
  ms: { fuzz: number; growth: number };
}

describe("parse fuzzer", () => {
  it(`${CASES} cases per format: no exception, no slow case, stream == one-shot, nothing lost; linear growth`, () => {
    const current = join(mkdtempSync(join(tmpdir(), "chatwire-fuzz-")), "current.json");
    const script = `
      const { main } = await import(BUNDLE);
      main(${JSON.stringify(["--fixtures", join(FIXTURES, "completions"), "--seed", String(SEED), "--per-format", String(CASES), "--growth", String(GROWTH), "--current", current])});
    `;
    const r = runBounded(script, "", 600_000, "test/fuzz/run.ts");
    if (!r.finished) {
      let at = "";
      try {
        at = readFileSync(current, "utf8");
      } catch {
        // no case started
      }
      expect.fail(`the fuzzer hung (killed at the time limit) on ${at}`);
    }
    expect(r.status, r.stderr.slice(0, 3000)).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    console.log(`fuzz: ${report.cases} cases in ${report.ms.fuzz} ms, growth: ${report.growth?.checked} inputs in ${report.ms.growth} ms; open: ${JSON.stringify(report.counts)}`);
    expect(report.cases).toBeGreaterThanOrEqual(CASES * 27);
    const unexpected = report.failures.filter((f) => KNOWN[`${f.kind} ${f.format}`] === undefined);
    expect(unexpected.map((f) => `${f.kind} ${f.format}: ${JSON.stringify(f.input).slice(0, 300)}\n${f.detail.slice(0, 600)}`)).toEqual([]);
    // The child's own limit (runBounded) decides a hang; vitest's default 60 s is less than a run takes
    // on a loaded machine.
  }, 660_000);
});
