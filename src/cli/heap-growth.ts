/**
 * V8's old-space growth for `chatwire serve`. After each full collection V8 lets the old space grow to
 * the live heap times a factor it picks from its own speed (up to 4). A server whose bounded caches
 * churn under new inputs promotes their evicted entries steadily, so with that factor RSS climbed to
 * 350-390 MB under a new tool schema in every request (the live heap 55-75 MB, the old space up to
 * 220 MB, mostly garbage waiting for the next collection), and took 10-18 batches of 1,000 requests to
 * stop. A factor of 1.5 (one of V8's own choices when it reduces memory) holds RSS at 205-240 MB from
 * the fifth batch on, at the same CPU per request within noise (docs/server.md, "Memory").
 *
 * A flag the user gave (node --heap-growing-percent=N, or in NODE_OPTIONS) is theirs: left as it is.
 */
import { setFlagsFromString } from "node:v8";

export const SERVE_HEAP_GROWING_PERCENT = 50;

export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): boolean {
  const given = (arg: string): boolean => /^--heap[-_]growing[-_]percent(=|$)/.test(arg);
  if (execArgv.some(given) || nodeOptions.split(/\s+/).some(given)) return false;
  setFlagsFromString(`--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`);
  return true;
}
