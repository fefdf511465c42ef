/**
 * Real completions from public bug reports (fixtures/wild/, README.md there) through our parser, one-shot
 * and streamed at seeded random splits. Each entry states what a careful human reads from the text: the
 * calls (names, argument values as parsed JSON), the content and the reasoning (compared modulo the
 * whitespace around them: where a marker ends and prose starts is not something a reader sees), or
 * `malformed: true` (no call, and every word of the model's text is still in content or reasoning).
 * Entries we do not get right yet are listed in KNOWN-FAILURES.json with the deviation kind; a listed
 * entry that starts passing fails the suite, so the list only shrinks honestly.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson, parsedOrText } from "./helpers/canonical-json.js";
import { seededRandom, randomPieces } from "./helpers/rng.js";
import { parseOneShot, parseStreamed } from "./helpers/run-parse.js";
import type { RunSpec } from "./helpers/run-parse.js";
import { FIXTURES } from "./helpers/fixtures.js";
import { knownWildFailures, wildEntries } from "./helpers/wild-fixtures.js";
import { BLOCK, wildCountsBlock } from "../scripts/wild-counts.mjs";
import type { WildEntry } from "./helpers/wild-fixtures.js";
import { getFormat, listFormats } from "../src/formats/index.js";
import type { FormatId } from "../src/formats/index.js";
import type { ParseResult } from "../src/types.js";

const entries = wildEntries();
const known = knownWildFailures();
const SPLIT_RUNS = 4;

function specOf(e: WildEntry): RunSpec {
  const spec: RunSpec = { format: e.format, request: { tools: e.request.tools } };
  if (e.request.tool_choice !== undefined) spec.request!.tool_choice = e.request.tool_choice;
  if (e.promptSuffix !== undefined) spec.promptSuffix = e.promptSuffix;
  return spec;
}

const norm = (text: string | null | undefined): string => (text ?? "").trim();

/** The reasoning markers of the format: a reader does not count them as text the model "said". */
function reasoningMarkers(format: string): string[] {
  return (getFormat(format as FormatId).reasoning ?? []).flatMap((m) => [...m.start, ...m.end]);
}

/** Every way `result` differs from what the entry states (empty: it agrees). */
export function wildMismatch(e: WildEntry, result: ParseResult): string[] {
  const out: string[] = [];
  const calls = (result.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: parsedOrText(c.function.arguments) }));
  if (e.malformed === true) {
    if (calls.length > 0) out.push(`invented calls ${JSON.stringify(calls)}`);
    const kept = `${result.message.content ?? ""}\n${result.message.reasoning_content ?? ""}`;
    let text = e.completion;
    for (const marker of reasoningMarkers(e.format)) text = text.split(marker).join(" ");
    const lost = text.split(/\s+/).filter((w) => w !== "" && !kept.includes(w));
    if (lost.length > 0) out.push(`lost text ${JSON.stringify(lost.slice(0, 5))}`);
    return out;
  }
  const want = e.expect!;
  const wantCalls = want.tool_calls.map((c) => ({ name: c.name, arguments: c.arguments }));
  if (canonicalJson(calls) !== canonicalJson(wantCalls)) out.push(`calls ${JSON.stringify(calls)}, expected ${JSON.stringify(wantCalls)}`);
  if (norm(result.message.content) !== norm(want.content)) out.push(`content ${JSON.stringify(result.message.content)}, expected ${JSON.stringify(want.content)}`);
  if (norm(result.message.reasoning_content) !== norm(want.reasoning_content)) {
    out.push(`reasoning ${JSON.stringify(result.message.reasoning_content)}, expected ${JSON.stringify(want.reasoning_content)}`);
  }
  return out;
}

/** The one-shot mismatches, plus any split whose folded stream differs from the one-shot result. */
function check(e: WildEntry): { problems: string[] } {
  const spec = specOf(e);
  const oneShot = parseOneShot(spec, e.completion);
  const problems = wildMismatch(e, oneShot);
  const kept = `${oneShot.message.content ?? ""}\u0000${oneShot.message.reasoning_content ?? ""}`;
  for (const issue of oneShot.errors) {
    // A repair's text is the markup it read as part of a call (docs/parsing.md "What we repair"), not content.
    if (issue.type === "repaired") continue;
    if (issue.text !== "" && !kept.includes(issue.text)) problems.push(`${issue.type} text not kept: ${JSON.stringify(issue.text.slice(0, 80))}`);
  }
  const random = seededRandom(e.key.length * 7919 + e.completion.length);
  for (let r = 0; r < SPLIT_RUNS; r++) {
    const pieces = randomPieces(e.completion, 2 + r * 5, random);
    if (canonicalJson(parseStreamed(spec, pieces).result) !== canonicalJson(oneShot)) {
      problems.push(`stream differs from one-shot for pieces ${JSON.stringify(pieces)}`);
      break;
    }
  }
  return { problems };
}

describe("wild completions", () => {
  it("README.md's counts block is the one scripts/wild-counts.mjs generates (regenerate: node scripts/wild-counts.mjs)", () => {
    const readme = readFileSync(join(FIXTURES, "wild", "README.md"), "utf8");
    const block = BLOCK.exec(readme);
    expect(block, "README.md needs a <!-- wild-counts:begin --> ... <!-- wild-counts:end --> block").not.toBeNull();
    expect(block![2]).toBe(wildCountsBlock());
  });

  it("meets issue 18's evidence bar", () => {
    const sources = new Set(entries.map((e) => e.source.replace(/#.*$/, ""))).size;
    const formats = new Set(entries.map((e) => e.format)).size;
    // >= 150 entries from >= 60 distinct sources, covering >= 20 formats.
    expect(entries.length).toBeGreaterThanOrEqual(150);
    expect(sources).toBeGreaterThanOrEqual(60);
    expect(formats).toBeGreaterThanOrEqual(20);
  });

  it("names real formats, and KNOWN-FAILURES lists only existing entries", () => {
    const ids = new Set<string>(listFormats().map((f) => f.id));
    expect(entries.filter((e) => !ids.has(e.format)).map((e) => e.key)).toEqual([]);
    const keys = new Set(entries.map((e) => e.key));
    expect([...known.keys()].filter((k) => !keys.has(k))).toEqual([]);
  });

  describe.each([...new Set(entries.map((e) => e.format))].sort())("%s", (format) => {
    for (const e of entries.filter((x) => x.format === format)) {
      const listed = known.get(e.key);
      if (listed === undefined) {
        it(`${e.key} (${e.deviation})`, () => {
          expect(check(e).problems, e.source).toEqual([]);
        });
      } else {
        it(`${e.key} (known failure, ${listed.deviation}: must still fail)`, () => {
          expect(check(e).problems.length, `${e.key} passes now: remove it from KNOWN-FAILURES.json`).toBeGreaterThan(0);
        });
      }
    }
  });
});
