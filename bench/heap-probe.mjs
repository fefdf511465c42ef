/**
 * Preloaded into the server by bench/server.mjs (`node --expose-gc --import ./heap-probe.mjs ...`):
 * on SIGUSR2 it runs a full collection and prints the heap left after it, with the resident set, so the
 * bench can tell what the process retains (flat under unique schemas when every cache is bounded) from
 * what V8 has reserved (RSS, which follows its heap sizing policy, not what is live).
 */
process.on("SIGUSR2", () => {
  globalThis.gc?.();
  const m = process.memoryUsage();
  process.stdout.write(`heap-after-gc ${m.heapUsed} ${m.heapTotal} ${m.rss}\n`);
});
