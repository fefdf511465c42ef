/**
 * Runs the parser the three ways the suites compare: one-shot, and streamed in given pieces (folded back
 * with the library's own `foldDeltas`, as a client would). Every run gets a fresh deterministic id
 * generator, so two runs over the same text must produce the same ids.
 */
import { createStreamParser, foldDeltas, parseCompletion } from "../../src/parse/index.js";
import type { ParseOptions, ReasoningCalls } from "../../src/parse/index.js";
import type { FormatId } from "../../src/formats/index.js";
import type { Delta, ParseResult } from "../../src/types.js";

/** The request as the parser sees it: only tools and tool_choice matter for parsing. */
export interface ParseRequest {
  tools?: unknown[] | null;
  tool_choice?: unknown;
}

export interface RunSpec {
  format: string;
  request?: ParseRequest;
  promptSuffix?: string;
  reasoningCalls?: ReasoningCalls;
}

/**
 * Ids counting up: valid ids that differ per call and repeat per run. A caller that injects a generator
 * makes ids valid for the format, as chatwire's default does: Mistral templates take exactly 9
 * alphanumerics, everyone else `call_` + 24.
 */
export function countingIds(format: string): () => string {
  let n = 0;
  return format === "mistral" ? () => String(++n).padStart(9, "0") : () => `call_${String(++n).padStart(24, "0")}`;
}

function options(spec: RunSpec): ParseOptions {
  const opts: ParseOptions = { idGenerator: countingIds(spec.format) };
  if (spec.promptSuffix !== undefined) opts.promptSuffix = spec.promptSuffix;
  if (spec.reasoningCalls !== undefined) opts.reasoningCalls = spec.reasoningCalls;
  return opts;
}

/** The request object handed to the parser; `tools: null` in a fixture means "no tools declared". */
function requestOf(spec: RunSpec): unknown {
  if (spec.request === undefined) return undefined;
  const body: Record<string, unknown> = { messages: [] };
  if (spec.request.tools) body.tools = spec.request.tools;
  if (spec.request.tool_choice !== undefined) body.tool_choice = spec.request.tool_choice;
  return body;
}

export function parseOneShot(spec: RunSpec, text: string): ParseResult {
  return parseCompletion(spec.format as FormatId, text, requestOf(spec), options(spec));
}

export interface StreamRun {
  /** The deltas of each push, in order, then those of end() as the last entry. */
  perPush: Delta[][];
  deltas: Delta[];
  result: ParseResult;
}

export function parseStreamed(spec: RunSpec, pieces: readonly string[]): StreamRun {
  const parser = createStreamParser(spec.format as FormatId, requestOf(spec), options(spec));
  const perPush: Delta[][] = [];
  for (const piece of pieces) perPush.push(parser.push(piece));
  perPush.push(parser.end());
  const deltas = perPush.flat();
  return { perPush, deltas, result: foldDeltas(deltas) };
}

/**
 * The content a stream parser sends for `text` pushed alone, before end(): what is not held back
 * (a repair may hold text only while it may still be what it repairs).
 */
export function contentBeforeEnd(format: string, text: string, tools: unknown[] | null): string {
  const parser = createStreamParser(format as FormatId, tools === null ? undefined : { tools });
  return parser.push(text).map((d) => d.content ?? "").join("");
}
