/**
 * Runs parse code in a child process with a wall-clock limit, so that a test of "this input returns"
 * fails (instead of hanging the test runner) when the engine loops: a synchronous infinite loop cannot
 * be interrupted in-process. The library source is bundled once with esbuild (no build step needed).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));

const bundles = new Map<string, string>();

/**
 * The path of a self-contained ESM bundle of `entry` (a path relative to the repository root, its
 * dependencies included), built once per test process into a temp dir.
 */
export function bundle(entry: string): string {
  const hit = bundles.get(entry);
  if (hit !== undefined) return hit;
  const out = join(mkdtempSync(join(tmpdir(), "chatwire-bundle-")), "bundle.mjs");
  buildSync({ entryPoints: [join(root, entry)], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "error" });
  bundles.set(entry, out);
  return out;
}

export interface ChildResult {
  /** False when the child was killed at the time limit. */
  finished: boolean;
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` (ESM source; `BUNDLE` in it is replaced by the bundle's file URL) with `input` on stdin,
 * killed after `timeoutMs`.
 */
export function runBounded(script: string, input: string, timeoutMs: number, entry = "src/index.ts"): ChildResult {
  const url = new URL(`file://${bundle(entry)}`).href;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script.replaceAll("BUNDLE", JSON.stringify(url))], {
    input,
    encoding: "utf8",
    timeout: timeoutMs,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024,
  });
  const killed = r.signal === "SIGKILL" || (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  return { finished: !killed, status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
