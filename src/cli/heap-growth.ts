/**
 * V8's old-space growth for `chatwire serve`. After each full collection V8 lets the old space grow to
 * the live heap times a factor it picks from its own speed (up to 4). A server whose bounded caches
 * churn under new inputs promotes their evicted entries steadily, so with that factor RSS climbed to
 * 350-390 MB under a new tool schema in every request (the live heap 55-75 MB, the old space up to
 * 220 MB, mostly garbage waiting for the next collection), and took 10-18 batches of 1,000 requests to
 * stop. A factor of 1.5 (one of V8's own choices when it reduces memory) holds RSS at 205-240 MB from
 * the fifth batch on, at the same CPU per request within noise (docs/server.md, "Memory").
 *
 * V8's flags are the whole process's, so this is set by the executable (main.ts), never by run() or
 * serveCommand, which tests and embedders call in their own process.
 */
import { setFlagsFromString } from "node:v8";

export const SERVE_HEAP_GROWING_PERCENT = 50;

/**
 * Whether node was started with a growth factor of the user's: theirs, left as it is. Node takes it
 * only on its command line, as V8 does (`--heap-growing-percent=N`, one dash or two, `-` or `_`
 * between the words); NODE_OPTIONS refuses it and `--heap-growing-percent N` does not start.
 */
export function heapGrowthGiven(execArgv: readonly string[]): boolean {
  return execArgv.some((arg) => /^--?heap[-_]growing[-_]percent=/.test(arg));
}

/** Sets serve's growth factor unless the user gave one; whether it set it. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (heapGrowthGiven(execArgv)) return false;
  setFlags(`--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`);
  return true;
}
