/**
 * A fluent case builder in the style of llama.cpp's chat tests:
 *
 *   tester("hermes").tools(TOOLS).test(raw).expect({ content: null, tool_calls: [...] });
 *
 * One line of data checks every way of feeding the text: one-shot, one code point at a time, at seeded
 * random cuts, and cut once at every position (split-checks.ts). The one-shot run must give the stated
 * message (and issues); every streamed run must fold to exactly the one-shot result, ids included.
 */
import { expectResult } from "./expect-message.js";
import type { ExpectedIssue, ExpectedMessage } from "./expect-message.js";
import type { ReasoningCalls } from "../../src/parse/index.js";
import { codePointPieces } from "./rng.js";
import { parseOneShot } from "./run-parse.js";
import type { ParseRequest, RunSpec } from "./run-parse.js";
import { expectPiecesEqualOneShot, expectRandomSplitsEqualOneShot, expectTwoPushSplitsEqualOneShot } from "./split-checks.js";

/** Seeded random multi-cut runs per case, and the two-push cuts (all of them up to this many). */
const RANDOM_RUNS = 6;
const MAX_TWO_PUSH_CUTS = 2000;

interface Settings {
  format: string;
  tools?: unknown[] | null;
  toolChoice?: unknown;
  promptSuffix?: string;
  reasoningCalls?: ReasoningCalls;
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

  /** What a call written inside reasoning is (ParseOptions.reasoningCalls). */
  reasoningCalls(mode: ReasoningCalls): Tester {
    return new Tester({ ...this.settings, reasoningCalls: mode });
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

    expectPiecesEqualOneShot(spec, codePointPieces(this.raw), oneShot, "code point by code point");
    expectRandomSplitsEqualOneShot(spec, this.raw, oneShot, this.settings.seed, RANDOM_RUNS);
    expectTwoPushSplitsEqualOneShot(spec, this.raw, oneShot, MAX_TWO_PUSH_CUTS);
  }

  private spec(): RunSpec {
    const s = this.settings;
    const request: ParseRequest = {};
    if (s.tools !== undefined) request.tools = s.tools;
    if (s.toolChoice !== undefined) request.tool_choice = s.toolChoice;
    const spec: RunSpec = { format: s.format, request };
    if (s.promptSuffix !== undefined) spec.promptSuffix = s.promptSuffix;
    if (s.reasoningCalls !== undefined) spec.reasoningCalls = s.reasoningCalls;
    return spec;
  }
}

export function tester(format: string): Tester {
  return new Tester({ format, seed: 1 });
}
