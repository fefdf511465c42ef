/**
 * The CLI's wall time for one `chatwire render` (Node start-up, loading the template, reading the
 * request, rendering, printing) against `python -c` doing the same with transformers (interpreter
 * start-up and `import transformers` included: what a user waits for either way). Fastest of a few runs
 * of each, and a check that both printed the same prompt.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const root = (p) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const TEMPLATE = root("fixtures/templates/Qwen-Qwen3-0.6B.jinja");
const REQUEST = root("bench/agent-request.json");
const PYTHON = root(".ref/bin/python");

const PY_SCRIPT = `
import json, sys
sys.path.insert(0, ${JSON.stringify(root("scripts"))})
from ref_render import prepare, render
source = open(${JSON.stringify(TEMPLATE)}, encoding="utf-8").read()
request = json.load(open(${JSON.stringify(REQUEST)}, encoding="utf-8"))
sys.stdout.write(render(prepare(source, "", "", {"request": request, "options": {}})))
`;

function fastest(cmd, args, runs) {
  let best = Infinity;
  let out = "";
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, env: { ...process.env, TZ: "UTC" } });
    const ms = performance.now() - t0;
    if (r.status !== 0) return { error: (r.stderr || r.error?.message || "failed").trim().split("\n").at(-1) };
    best = Math.min(best, ms);
    out = r.stdout;
  }
  return { ms: best, sha1: createHash("sha1").update(out).digest("hex") };
}

export function runCliWallBench({ runs = 5 } = {}) {
  console.log("\n== one `chatwire render` from the command line (wall time, start-up included, fastest of " + runs + ") ==");
  const cw = fastest(process.execPath, [root("dist/cli/main.js"), "render", "--template", TEMPLATE, "--request", REQUEST, "--polyfill", "never"], runs);
  const cwPlain = cw.error ? fastest(process.execPath, [root("dist/cli/main.js"), "render", "--template", TEMPLATE, "--request", REQUEST], runs) : cw;
  const py = existsSync(PYTHON) ? fastest(PYTHON, ["-c", PY_SCRIPT], Math.min(runs, 3)) : { error: ".ref/bin/python not found" };
  const fmt = (r) => (r.error ? `failed: ${r.error}` : `${r.ms.toFixed(0)} ms`);
  console.log(`chatwire render:                 ${fmt(cwPlain)}`);
  console.log(`python -c (transformers):        ${fmt(py)}`);
  if (!cwPlain.error && !py.error) {
    console.log(`ratio: ${(py.ms / cwPlain.ms).toFixed(1)}x; same prompt: ${py.sha1 === cwPlain.sha1 ? "yes" : "NO"}`);
  }
}
