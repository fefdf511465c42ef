/**
 * The fuzz runner, as a program: the CI test (test/fuzz/fuzz.test.ts) and `npm run fuzz`
 * (scripts/fuzz.mjs) bundle this file and run it in a child process with a time limit, so that a hang
 * fails (naming the case it hung on) instead of stopping the runner.
 *
 *   node run.mjs --fixtures DIR [--seed N] [--per-format N] [--growth N] [--formats a,b] [--current FILE]
 *
 * Prints one JSON report on stdout: case counts, failures (with what is needed to replay each), the
 * growth check's worst ratios. `--current FILE`: the case in progress is written there before it runs.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkGrowth, runFuzz } from "./harness.js";
import type { FixtureFile } from "./harness.js";

/** Runs the fuzzer with command-line style arguments; prints the report. */
export function main(argv: readonly string[]): void {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };

  const dir = arg("fixtures");
  if (dir === undefined) throw new Error("--fixtures DIR is required");
  const fixtures: FixtureFile[] = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as FixtureFile);
  const seed = Number(arg("seed") ?? 1);
  const perFormat = Number(arg("per-format") ?? 500);
  const growth = Number(arg("growth") ?? 0);
  const formats = arg("formats")?.split(",");
  const current = arg("current");

  const t0 = performance.now();
  const fuzz = runFuzz({
    seed,
    perFormat,
    fixtures,
    ...(formats === undefined ? {} : { formats }),
    ...(current === undefined ? {} : { onCase: (c) => writeFileSync(current, JSON.stringify(c)) }),
  });
  const fuzzMs = performance.now() - t0;
  const t1 = performance.now();
  const grown = growth > 0 ? checkGrowth({ fixtures, length: growth, wide: argv.includes("--wide"), ...(current === undefined ? {} : { onFragment: (format: string, fragment: string) => writeFileSync(current, JSON.stringify({ growth: format, fragment })) }), ...(formats === undefined ? {} : { formats }) }) : undefined;
  const growthMs = performance.now() - t1;
  process.stdout.write(
    JSON.stringify({
      seed,
      cases: fuzz.cases,
      byFormat: fuzz.byFormat,
      counts: fuzz.counts,
      failures: [...fuzz.failures, ...(grown?.failures ?? [])],
      growth: grown === undefined ? undefined : { checked: grown.checked, worst: grown.worst, failures: grown.failures.length },
      ms: { fuzz: Math.round(fuzzMs), growth: Math.round(growthMs) },
    }),
  );
}

if (process.argv.includes("--fixtures")) main(process.argv.slice(2));
