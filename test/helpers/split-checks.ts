/**
 * The streaming property, as reusable checks: a text fed in any pieces folds to exactly the one-shot
 * result (ids included: every run gets the same deterministic id generator), its deltas are well formed,
 * and what the first push of a split has shown is a prefix of the final content and reasoning (nothing
 * is taken back, so no partial marker was ever shown).
 */
import { expect } from "vitest";
import type { Delta, ParseResult } from "../../src/types.js";
import { expectWellFormedDeltas } from "./delta-invariants.js";
import { cutAt, cutPositions, randomPieces, seededRandom } from "./rng.js";
import { parseStreamed } from "./run-parse.js";
import type { RunSpec } from "./run-parse.js";

/** Joined content and reasoning of some deltas. */
export function emitted(deltas: readonly Delta[]): { content: string; reasoning: string } {
  let content = "";
  let reasoning = "";
  for (const d of deltas) {
    content += d.content ?? "";
    reasoning += d.reasoning_content ?? "";
  }
  return { content, reasoning };
}

/** Streams `pieces` and checks the folded result and the delta shapes. */
export function expectPiecesEqualOneShot(spec: RunSpec, pieces: readonly string[], oneShot: ParseResult, label: string): void {
  const run = parseStreamed(spec, pieces);
  expectWellFormedDeltas(run.deltas, label);
  expect(run.result, `${label}: equals one-shot`).toEqual(oneShot);
}

/** Every cut into two pushes (at most `max`, evenly sampled), with the nothing-taken-back check. */
export function expectTwoPushSplitsEqualOneShot(spec: RunSpec, text: string, oneShot: ParseResult, max = Infinity): void {
  const all = cutPositions(text);
  const step = all.length > max ? all.length / max : 1;
  const finalContent = oneShot.message.content ?? "";
  const finalReasoning = oneShot.message.reasoning_content ?? "";
  for (let k = 0; k < all.length; k += step) {
    const cut = all[Math.floor(k)]!;
    const label = `cut at ${cut}: ${JSON.stringify(text.slice(0, cut))} | ${JSON.stringify(text.slice(cut))}`;
    const run = parseStreamed(spec, cutAt(text, [cut]));
    expect(run.result, `${label}: equals one-shot`).toEqual(oneShot);
    const first = emitted(run.perPush[0]!);
    expect(finalContent.startsWith(first.content), `${label}: content shown early ${JSON.stringify(first.content)}`).toBe(true);
    expect(finalReasoning.startsWith(first.reasoning), `${label}: reasoning shown early ${JSON.stringify(first.reasoning)}`).toBe(true);
  }
}

/** `runs` seeded random multi-cut streams, each with more cuts than the last. */
export function expectRandomSplitsEqualOneShot(spec: RunSpec, text: string, oneShot: ParseResult, seed: number, runs: number): void {
  const random = seededRandom(seed);
  for (let r = 0; r < runs; r++) {
    const pieces = randomPieces(text, 2 + r * 3, random);
    expectPiecesEqualOneShot(spec, pieces, oneShot, `random cuts (seed ${seed}, run ${r}) ${JSON.stringify(pieces)}`);
  }
}
