#!/usr/bin/env node
/**
 * `npm run bench` (builds first, then runs this): the render benchmark (bench/render-compare.mjs),
 * when it exists the parse benchmark (bench/parse.mjs), and the server benchmark (bench/server.mjs). Set BENCH_BUDGET_MS to change how long each
 * figure is sampled (default 150 ms).
 */
import { existsSync } from "node:fs";
import { runCliWallBench } from "./cli-wall.mjs";
import { runRenderBench } from "./render-compare.mjs";

const budgetMs = Number(process.env.BENCH_BUDGET_MS ?? 150);
await runRenderBench({ budgetMs });
runCliWallBench();

const { runTokensBench } = await import("./tokens.mjs");
await runTokensBench({ budgetMs });

const parseBench = new URL("./parse.mjs", import.meta.url);
if (existsSync(parseBench)) {
  const { runParseBench } = await import(parseBench.href);
  await runParseBench();
} else {
  console.log("\n(bench/parse.mjs not present: parse benchmark skipped)");
}

// chatwire serve: added latency and throughput against a stand-in backend (bench/server.mjs).
const { runServerBench } = await import(new URL("./server.mjs", import.meta.url).href);
await runServerBench();
