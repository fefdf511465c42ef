/**
 * llama.cpp's lazy-grammar trigger, emulated as its sampler runs it (llama-grammar.cpp,
 * llama_grammar_accept_impl, with common/sampling.cpp's trigger set-up): while awaiting a trigger,
 * every piece is appended to a buffer; a token trigger fires when that token is sampled, and the
 * grammar then takes the token's piece; word triggers become one pattern `^[\s\S]*?(w1|w2)[\s\S]*`
 * and pattern_full triggers are used as given, each matched (regex_match: the whole buffer) after
 * every piece, and on a match the grammar takes the buffer from the first non-empty capture on (or
 * from the match start). node-llama-cpp 3.21.1 has no lazy grammar, so the tests drive this.
 */
import type { GrammarTrigger } from "../../src/server/backends/types.js";
import { escapeRegExp } from "../../src/regexp-escape.js";

export class LazyTriggerState {
  private buffer = "";
  private readonly tokens: Set<number>;
  private readonly patterns: RegExp[];
  /** Text the grammar takes when the trigger fired (undefined while awaiting). */
  fired: string | undefined;

  constructor(triggers: readonly GrammarTrigger[]) {
    this.tokens = new Set(triggers.flatMap((t) => (t.kind === "word" && t.token !== undefined ? [t.token] : [])));
    const words = triggers.flatMap((t) => (t.kind === "word" && t.token === undefined ? [escapeRegExp(t.text)] : []));
    // `d`: capture offsets, to take the buffer from the first capture on.
    this.patterns = triggers.flatMap((t) => (t.kind === "pattern-full" ? [new RegExp(t.pattern, "d")] : []));
    if (words.length > 0) this.patterns.push(new RegExp(`^[\\s\\S]*?(${words.join("|")})[\\s\\S]*$`, "d"));
  }

  /** Feeds one sampled piece (with its token id, when known); true when the trigger fires on it. */
  push(piece: string, token?: number): boolean {
    if (this.fired !== undefined) return false;
    if (token !== undefined && this.tokens.has(token)) {
      this.fired = piece;
      return true;
    }
    this.buffer += piece;
    for (const pattern of this.patterns) {
      const m = pattern.exec(this.buffer);
      // The regex must match the whole buffer (std::regex_match).
      if (m === null || m.index !== 0 || m[0].length !== this.buffer.length) continue;
      const group = m.slice(1).findIndex((g) => g !== undefined && g.length > 0);
      const start = group < 0 ? 0 : m.indices![group + 1]![0];
      this.fired = this.buffer.slice(start);
      return true;
    }
    return false;
  }
}
