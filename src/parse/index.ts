/**
 * The parse API. One engine serves both paths: `createStreamParser` returns it; `parseCompletion`
 * pushes the whole text, ends, and folds the deltas with `foldDeltas`, the same function a streaming
 * client would use, so a one-shot parse equals a reassembled stream by construction.
 */
import { invalidRequest } from "../errors.js";
import { getFormat } from "../formats/index.js";
import type { FormatDescription, FormatId } from "../formats/types.js";
import type { Delta, ParseResult, StreamParser } from "../types.js";
import { compileFormat } from "./compile-format.js";
import type { CompiledFormat } from "./compile-format.js";
import { ParseEngine } from "./engine.js";
import { foldDeltas } from "./fold.js";
import { CallPolicy } from "./policy.js";

export interface ParseOptions {
  /** Makes call ids for calls the model gave none (default: crypto random, in the format's style). */
  idGenerator?: () => string;
  /**
   * The end of the rendered prompt. If it opened a reasoning block (`<think>\n`) the output starts in
   * reasoning; harmony and functionary prompts end inside a message header.
   */
  promptSuffix?: string;
  /**
   * What a call written inside a reasoning block (`<think>…<tool_call>…</tool_call>…</think>`) is.
   * `"call"` (the default): a call like any other, the reasoning around it stays reasoning. `"text"`:
   * reasoning text, kept in `reasoning_content` and never returned as a call (for agents whose model
   * rehearses a call in its reasoning and then makes it). Why "call" is the default: docs/parsing.md,
   * "Calls written inside reasoning".
   */
  reasoningCalls?: ReasoningCalls;
}

/** The values of ParseOptions.reasoningCalls. */
export type ReasoningCalls = "call" | "text";

export const REASONING_CALLS: readonly ReasoningCalls[] = ["call", "text"];

/** Options come from JavaScript callers too: a value the parser does not know is refused, not ignored. */
function checkOptions(options: ParseOptions): ParseOptions {
  const v: unknown = options.reasoningCalls;
  if (v !== undefined && !REASONING_CALLS.includes(v as ReasoningCalls)) {
    throw invalidRequest("reasoningCalls", `must be "call" or "text", got ${JSON.stringify(v)}`);
  }
  return options;
}

function resolve(format: FormatId | FormatDescription): CompiledFormat {
  return compileFormat(typeof format === "string" ? getFormat(format) : format);
}

/**
 * A streaming parser for one completion. `request` (a Chat Completions or Responses body, or just
 * `{tools, tool_choice}`) decides which calls are accepted and how they are validated.
 * Throws ChatwireError for an unknown format id or a malformed request; never for model output.
 */
export function createStreamParser(format: FormatId | FormatDescription, request?: unknown, options: ParseOptions = {}): StreamParser {
  return new EngineStreamParser(new ParseEngine(resolve(format), new CallPolicy(request), checkOptions(options)));
}

/**
 * The parser handed out: methods on a class, not arrow functions made per parser. A caller's loop of
 * `parser.push(d)` is optimised for the function it calls; a fresh closure per parser is a different
 * function each time, and V8 then throws the optimised loop away for every new stream ("wrong call
 * target"), which cost a streamed call more than the parsing itself. The engine stays private.
 */
class EngineStreamParser implements StreamParser {
  readonly #engine: ParseEngine;

  constructor(engine: ParseEngine) {
    this.#engine = engine;
  }

  push(delta: string): Delta[] {
    return this.#engine.push(delta);
  }

  end(): Delta[] {
    return this.#engine.end();
  }
}

/** Parses a whole completion into an assistant message, its finish reason, and the issues found. */
export function parseCompletion(format: FormatId | FormatDescription, completion: string, request?: unknown, options: ParseOptions = {}): ParseResult {
  const parser = createStreamParser(format, request, options);
  return foldDeltas([...parser.push(completion), ...parser.end()]);
}

export { foldDeltas };
