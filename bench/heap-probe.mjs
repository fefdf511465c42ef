/**
 * Preloaded into the server by bench/server.mjs (`node --expose-gc --import ./heap-probe.mjs ...`).
 * On SIGUSR2 it prints, without collecting anything itself, the resident set, the heap V8 has
 * reserved, and the heap left by the last full collection V8 ran on its own since the previous
 * signal (v8.GCProfiler; 0 when none ran): what the process retains, read at no cost to what it holds.
 * A collection forced at every reading kept RSS lower than in a server nobody probes (it reset V8's
 * heap sizing every 1,000 requests: 216-239 MB against 330-380 at batches 10-15), so one is forced
 * only on SIGWINCH, once, after the last batch (SIGUSR1 is Node's inspector).
 */
import { GCProfiler } from "node:v8";

let profiler = new GCProfiler();
profiler.start();

function lastFullGc() {
  const { statistics } = profiler.stop();
  profiler = new GCProfiler();
  profiler.start();
  const full = statistics.filter((s) => s.gcType === "MarkSweepCompact");
  return { count: full.length, used: full.length === 0 ? 0 : full[full.length - 1].afterGC.heapStatistics.usedHeapSize };
}

process.on("SIGUSR2", () => {
  const m = process.memoryUsage();
  const full = lastFullGc();
  process.stdout.write(`heap-probe ${m.rss} ${m.heapTotal} ${full.used} ${full.count}\n`);
});

process.on("SIGWINCH", () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stdout.write(`heap-after-gc ${m.heapUsed} ${m.heapTotal} ${m.rss}\n`);
});
