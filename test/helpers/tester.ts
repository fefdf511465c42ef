/**
 * A fluent case builder in the style of llama.cpp's chat tests:
 *
 *   tester("hermes").tools(TOOLS).test(raw).expect({ content: null, tool_calls: [...] });
 *
 * One line of data checks three runs: one-shot, streamed one code point at a time, and streamed at
 * seeded random cuts. Each run must give the stated message (and issues), the streamed deltas must be
 * well formed, and every streamed result must equal the one-shot result exactly, ids included.
 */
import { expect } from "vitest";
import { expectWellFormedDeltas } from "./delta-invariants.js";
import { expectResult } from "./expect-message.js";
import type { ExpectedIssue, ExpectedMessage } from "./expect-message.js";
import { codePointPieces, randomPieces, seededRandom } from "./rng.js";
import { parseOneShot, parseStreamed } from "./run-parse.js";
import type { RunSpec } from "./run-parse.js";

/** How many random multi-cut runs each case gets, and the cuts per run. */
const RANDOM_RUNS = 4;
const RANDOM_CUTS = 7;

interface Settings {
  format: string;
  tools?: unknown[] | null;
  toolChoice?: unknown;
  promptSuffix?: string;
  seed: number;
}

export class Tester {
  constructor(private readonly settings: Settings) {}

  tools(tools: unknown[] | null): Tester {
    return new Tester({ ...this.settings, tools });
  }

  toolChoice(choice: unknown): Tester {
    return new Tester({ ...this.settings, toolChoice: choice });
  }

  /** The end of the rendered prompt (for example `<think>\n`: the output starts inside reasoning). */
  promptSuffix(suffix: string): Tester {
    return new Tester({ ...this.settings, promptSuffix: suffix });
  }

  seed(seed: number): Tester {
    return new Tester({ ...this.settings, seed });
  }

  test(raw: string): TestCase {
    return new TestCase(this.settings, raw, []);
  }
}

export class TestCase {
  constructor(
    private readonly settings: Settings,
    private readonly raw: string,
    private readonly issues: readonly ExpectedIssue[],
  ) {}

  /** The issues the parse must report (default: none). */
  errors(issues: readonly ExpectedIssue[]): TestCase {
    return new TestCase(this.settings, this.raw, issues);
  }

  /** Runs the case every way and checks each against `want`. */
  expect(want: ExpectedMessage): void {
    const { format } = this.settings;
    const spec = this.spec();
    const oneShot = parseOneShot(spec, this.raw);
    expectResult(format, oneShot, want, this.issues, "one-shot");

    const runs: Array<[string, string[]]> = [["code point by code point", codePointPieces(this.raw)]];
    const random = seededRandom(this.settings.seed);
    for (let r = 0; r < RANDOM_RUNS; r++) {
      const pieces = randomPieces(this.raw, RANDOM_CUTS, random);
      runs.push([`random cuts (seed ${this.settings.seed}, run ${r}) ${JSON.stringify(pieces)}`, pieces]);
    }
    for (const [label, pieces] of runs) {
      const streamed = parseStreamed(spec, pieces);
      expectWellFormedDeltas(streamed.deltas, label);
      expect(streamed.result, `${label}: equals one-shot`).toEqual(oneShot);
    }
  }

  private spec(): RunSpec {
    const s = this.settings;
    const spec: RunSpec = { format: s.format, request: {} };
    if (s.tools !== undefined) spec.request!.tools = s.tools;
    if (s.toolChoice !== undefined) spec.request!.tool_choice = s.toolChoice;
    if (s.promptSuffix !== undefined) spec.promptSuffix = s.promptSuffix;
    return spec;
  }
}

export function tester(format: string): Tester {
  return new Tester({ format, seed: 1 });
}
