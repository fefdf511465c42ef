/**
 * Checks that need the model's tokenizer: the special-token strings the template prints are tokens of
 * the vocabulary, BOS is not doubled by a backend that adds one, and the generation prompt ends on a
 * token boundary (so the model's first token is not glued to the prompt's last).
 */
import type { ChatTokenizer } from "../tokens/index.js";
import { around, type CheckContext } from "./context.js";

/**
 * The little of a tokenizer the checks need. `checkTemplate` also takes what `loadTokenizer` returns
 * (a ChatTokenizer) and adapts it with `checkTokenizerOf`.
 */
export interface CheckTokenizer {
  /** Ids of `text` as a backend tokenises template text (added tokens matched anywhere, nothing added). */
  encode(text: string): number[];
  /** Added tokens of the vocabulary by their text. */
  addedTokens: ReadonlyMap<string, { id: number; special: boolean }>;
  /** The id the tokenizer puts first by itself when a backend encodes with special tokens, if any. */
  addedBosId?: number;
}

/**
 * Literals shaped like special tokens: `<|im_start|>`, `<｜User｜>`, `[INST]`, `<start_of_turn>`,
 * `</tool_call>`. Plain tags (`<tools>`, `<function-name>`) are left out: templates write them as prose.
 */
/** A ChatTokenizer (src/tokens, what `loadTokenizer` returns) as the checks read it. */
export function checkTokenizerOf(tokenizer: ChatTokenizer | CheckTokenizer): CheckTokenizer {
  if (!Array.isArray(tokenizer.addedTokens)) return tokenizer as CheckTokenizer;
  const tok = tokenizer as ChatTokenizer;
  const addedTokens = new Map(tok.addedTokens.map((t) => [t.content, { id: t.id, special: t.special === true }] as const));
  // Encoded as a backend encodes template text: special-token text parsed.
  return { encode: (text) => tok.tokenize(text, true), addedTokens, ...(tok.addedBosId === undefined ? {} : { addedBosId: tok.addedBosId }) };
}

const MARKER = /<\|[^<>|\s]{1,40}\|>|<｜[^<>｜]{1,40}｜>|<\/?[a-z]+(?:_[a-z]+)+>|\[\/?[A-Z][A-Z_]{1,30}\]/g;

export function checkTokens(ctx: CheckContext, tokenizer: CheckTokenizer, prompts: readonly string[]): void {
  const printed = new Set<string>();
  for (const literal of ctx.template.source.matchAll(MARKER)) {
    if (prompts.some((p) => p.includes(literal[0]))) printed.add(literal[0]);
  }
  const unknown = [...printed].filter((m) => !tokenizer.addedTokens.has(m)).sort();
  if (unknown.length > 0) {
    ctx.add({
      check: "special-tokens",
      severity: "warning",
      message: `the template prints ${unknown.map((m) => JSON.stringify(m)).join(", ")}, which ${unknown.length > 1 ? "are" : "is"} not a token of the vocabulary: tokenised as text, the model may not read ${unknown.length > 1 ? "them" : "it"} as a marker`,
    });
  }
  const base = ctx.render({ messages: [{ role: "user", content: "Hello!" }] });
  if ("error" in base) return;
  const bos = ctx.template.specialTokens.bos_token;
  if (tokenizer.addedBosId !== undefined && bos !== undefined && bos !== "" && base.prompt.startsWith(bos)) {
    ctx.add({
      check: "bos",
      severity: "warning",
      message: `the template prints the BOS token ${JSON.stringify(bos)} and the tokenizer adds one too: a backend that tokenises with special tokens sends it twice (send add_special_tokens: false, or token ids)`,
      bytes: { offset: 0, context: around(base.prompt, 0) },
    });
  }
  const ids = tokenizer.encode(base.prompt);
  const continued = tokenizer.encode(base.prompt + "Hello");
  if (!ids.every((id, i) => continued[i] === id)) {
    ctx.add({
      check: "token-boundary",
      severity: "warning",
      message: "the generation prompt does not end on a token boundary: its last token merges with the model's first, so the prompt's ids are not a prefix of the conversation's",
      bytes: { offset: base.prompt.length, context: base.prompt.slice(-40) },
    });
  }
}
