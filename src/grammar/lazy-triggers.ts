/**
 * The triggers of a lazy grammar (llama.cpp's `grammar_lazy`): the output is free until one fires, and
 * from the trigger's first capture on (or the whole match) the grammar constrains the rest, so the
 * grammar starts with the text a trigger matches. Each is either a word (a call-start marker: the
 * server turns one that is a single token into a token trigger) or a pattern that must match the whole
 * output so far (llama.cpp's `pattern_full`), used where a marker alone would fire in the wrong place:
 * - inside reasoning: a call marker in `<think>...</think>` is reasoning text to the parser, so the
 *   trigger asks for the reasoning to be closed (or never opened) before the marker;
 * - calls only at the start (Llama 3's bare `{`): the marker must open the output;
 * - a one-character start that is also prose (pythonic `[`): only with a callable tool's name after it.
 * Patterns are ECMAScript regular expressions (llama.cpp compiles them with std::regex, ECMAScript).
 */
import type { FormatDescription } from "../formats/types.js";
import { escapeRegExp } from "../regexp-escape.js";

export type LazyTrigger = { kind: "word"; word: string } | { kind: "pattern-full"; pattern: string };

export interface TriggerInput {
  format: FormatDescription;
  /** The text each group of calls starts with (CallShape.starts). */
  starts: readonly string[];
  /** Calls only at the very start of the output. */
  atStartOnly: boolean;
  /** The prompt opened the reasoning block: the output starts inside it. */
  reasoningOpened: boolean;
  /** The tools a call may name. */
  names: readonly string[];
}

const alternatives = (texts: readonly string[]): string => `(?:${texts.map(escapeRegExp).join("|")})`;

export function lazyTriggers(input: TriggerInput): LazyTrigger[] {
  const { format, atStartOnly, reasoningOpened } = input;
  const reasoning = format.reasoning?.[0];
  // A start that is one character of ordinary text (pythonic `[`) fires only with a tool's name after it.
  const quiet = (start: string): boolean => start.length === 1 && !atStartOnly;
  const starts = input.starts.map((s) => (quiet(s) ? `${escapeRegExp(s)}${alternatives(input.names)}` : escapeRegExp(s)));
  if (reasoning === undefined && !atStartOnly && !input.starts.some(quiet)) return input.starts.map((word) => ({ kind: "word", word }));
  let before = "";
  let prose = "[\\s\\S]*?";
  if (reasoning !== undefined) {
    const open = alternatives(reasoning.start);
    const close = alternatives(reasoning.end);
    before = reasoningOpened ? `[\\s\\S]*?${close}` : `(?:\\s*${open}[\\s\\S]*?${close})?`;
    // No reasoning block opens in the prose before the call (a marker inside one is not a call).
    prose = `(?:(?!${open})[\\s\\S])*?`;
  }
  if (atStartOnly) prose = "\\s*";
  return [{ kind: "pattern-full", pattern: `^${before}${prose}(${starts.join("|")})[\\s\\S]*$` }];
}
