#!/usr/bin/env node
/**
 * `npm run fuzz`: the parse fuzzer of test/fuzz (same generator and checks as the CI test) with a
 * bigger budget: by default 4000 cases per format (> 100k in all) and the growth check at 16k
 * characters. Options: --per-format N, --seed N, --growth N, --formats a,b.
 * The run happens in a child process; if it stops making progress for 60 s, it is killed and the case
 * it was on is printed.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dir = mkdtempSync(join(tmpdir(), "chatwire-fuzz-"));
const bundle = join(dir, "fuzz.mjs");
buildSync({ entryPoints: [join(root, "test/fuzz/run.ts")], bundle: true, platform: "node", format: "esm", outfile: bundle, logLevel: "error" });

const args = process.argv.slice(2);
const opt = (name, value) => (args.includes(`--${name}`) ? [] : [`--${name}`, value]);
const current = join(dir, "current.json");
const argv = [bundle, "--fixtures", join(root, "fixtures/completions"), "--wide", ...opt("per-format", "4000"), ...opt("seed", "1"), ...opt("growth", "16000"), "--current", current, ...args];
const child = spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "inherit"] });
let out = "";
child.stdout.on("data", (d) => (out += d));
let last = Date.now();
let lastMtime = 0;
const watch = setInterval(() => {
  try {
    const m = statSync(current).mtimeMs;
    if (m !== lastMtime) {
      lastMtime = m;
      last = Date.now();
    }
  } catch {}
  if (Date.now() - last > 60_000) {
    console.error(`fuzz: no progress for 60 s, killed; the case in progress:\n${readFileSync(current, "utf8")}`);
    child.kill("SIGKILL");
  }
}, 1000);
child.on("exit", (code) => {
  clearInterval(watch);
  if (code !== 0) process.exit(code ?? 1);
  const r = JSON.parse(out);
  console.log(`fuzz: ${r.cases} cases (seed ${r.seed}) in ${(r.ms.fuzz / 1000).toFixed(1)} s; growth: ${r.growth?.checked ?? 0} inputs in ${(r.ms.growth / 1000).toFixed(1)} s`);
  console.log(`failures by kind and format: ${JSON.stringify(r.counts)}`);
  for (const f of r.failures) console.log(`\n[${f.kind}] ${f.format}: ${JSON.stringify(f.input)}\n${f.detail}`);
  if (r.growth) console.log(`\nworst growth ratios (4x input): ${r.growth.worst.map((w) => `${w.format} ${JSON.stringify(w.fragment).slice(0, 30)} ${w.stream ? "stream" : "one"} ${w.ratio.toFixed(1)}x`).join("; ")}`);
  process.exit(r.failures.length > 0 ? 1 : 0);
});
