#!/usr/bin/env node
/**
 * Rewrites the generated counts block of fixtures/wild/README.md (between `<!-- wild-counts:begin -->`
 * and `<!-- wild-counts:end -->`) from the fixtures themselves: entries, distinct sources, formats, the
 * share of leaderboard result files, and the table by deviation with "passing now". test/wild.test.ts
 * fails while the block differs from what this script writes, so the numbers cannot go stale.
 *
 * "Passing now" is read from KNOWN-FAILURES.json, not from running the parser: test/wild.test.ts
 * requires that every listed entry fails and every unlisted entry passes, so whenever that test is
 * green, passing = entries - listed. Keeping the parser out makes this script a plain data job.
 *
 * Usage: node scripts/wild-counts.mjs   (rewrites the block; prints what changed)
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const BLOCK = /(<!-- wild-counts:begin -->\n)([^]*?)(<!-- wild-counts:end -->)/;

/** A source is its address without the fragment (two comments of one thread are one source). */
const sourceOf = (url) => url.replace(/#.*$/, "");
/**
 * Result files of the Berkeley Function Calling Leaderboard: one model run per file, not a bug report. They
 * live in the gorilla repository (community runs) and in HuanzhiMao/BFCL-Result (the leaderboard's own runs).
 */
const isLeaderboard = (url) =>
  url.includes("berkeley-function-call-leaderboard/result/") || url.startsWith("https://github.com/HuanzhiMao/BFCL-Result/");

/** Every entry of fixtures/wild: key (`<format>/<slug>`), format, deviation, source. */
export function wildEntryFacts(root = ROOT) {
  const wild = join(root, "fixtures", "wild");
  const out = [];
  for (const dir of readdirSync(wild).sort()) {
    if (!statSync(join(wild, dir)).isDirectory()) continue;
    for (const file of readdirSync(join(wild, dir)).sort()) {
      if (!file.endsWith(".json")) continue;
      const e = JSON.parse(readFileSync(join(wild, dir, file), "utf8"));
      out.push({ key: `${dir}/${file.slice(0, -".json".length)}`, format: e.format, deviation: e.deviation, source: sourceOf(e.source) });
    }
  }
  return out;
}

/** The markdown between the markers, generated from the fixtures and KNOWN-FAILURES.json. */
export function wildCountsBlock(root = ROOT) {
  const entries = wildEntryFacts(root);
  const failing = new Set(Object.keys(JSON.parse(readFileSync(join(root, "fixtures", "wild", "KNOWN-FAILURES.json"), "utf8"))));
  const sources = new Set(entries.map((e) => e.source));
  const formats = new Set(entries.map((e) => e.format));
  const board = entries.filter((e) => isLeaderboard(e.source));
  const boardSources = new Set(board.map((e) => e.source));
  const boardFormats = [...new Set(board.map((e) => e.format))].sort();

  const rows = new Map();
  for (const e of entries) {
    const row = rows.get(e.deviation) ?? { entries: 0, passing: 0, formats: new Set() };
    row.entries++;
    if (!failing.has(e.key)) row.passing++;
    row.formats.add(e.format);
    rows.set(e.deviation, row);
  }
  const ordered = [...rows.entries()].sort((a, b) => b[1].entries - a[1].entries || (a[0] < b[0] ? -1 : 1));
  const passing = entries.filter((e) => !failing.has(e.key)).length;

  const lines = [
    `Counts: ${entries.length} entries, ${sources.size} sources, ${formats.size} formats.`,
    "",
    `Of the ${sources.size} sources, ${boardSources.size} are leaderboard result files holding ${board.length} entries` +
      (boardFormats.length > 0 ? ` (${boardFormats.map((f) => `\`${f}\``).join(", ")})` : "") +
      `; the other ${sources.size - boardSources.size} sources (issue and pull-request threads, forum pages) hold ${entries.length - board.length} entries.`,
    "",
    "| deviation | entries | passing now | formats |",
    "| --- | --- | --- | --- |",
    ...ordered.map(([kind, r]) => `| \`${kind}\` | ${r.entries} | ${r.passing} | ${[...r.formats].sort().join(", ")} |`),
    `| all | ${entries.length} | ${passing} | |`,
  ];
  return `${lines.join("\n")}\n`;
}

/** Rewrites the block in fixtures/wild/README.md; returns whether the file changed. */
export function writeWildCounts(root = ROOT) {
  const path = join(root, "fixtures", "wild", "README.md");
  const readme = readFileSync(path, "utf8");
  if (!BLOCK.test(readme)) throw new Error("fixtures/wild/README.md has no <!-- wild-counts:begin --> ... <!-- wild-counts:end --> block");
  const next = readme.replace(BLOCK, (_m, open, _body, close) => `${open}${wildCountsBlock(root)}${close}`);
  if (next === readme) return false;
  writeFileSync(path, next);
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(writeWildCounts() ? "fixtures/wild/README.md counts updated" : "fixtures/wild/README.md counts already current");
}
