/**
 * Which constraint a generation gets, and in what form each engine does best (docs/server.md,
 * "Constraints"): for a request with tools, under `tool_choice: "auto"` a lazy grammar (llama-server)
 * or a structural tag (vLLM, SGLang), so free text is sampled exactly as without a constraint until a
 * call starts; under `required` or a named tool the grammar of the whole output. Without tools, the
 * response_format's JSON constraint. Only kinds the backend has a field for are sent.
 */
import type { CancelSource, Constraint, GrammarTrigger } from "./backends/index.js";
import type { GrammarRequest } from "./generation.js";
import type { PromptTokenizer } from "./prompt-tokens.js";
import type { RequestGrammars } from "./request-grammar.js";
import type { LazyGrammar } from "../grammar/index.js";

export interface ConstraintSources {
  accepts: readonly Constraint["kind"][];
  grammars: RequestGrammars | undefined;
  /** The vocabulary, to send a one-token marker as a token trigger (without it, as a word). */
  tokenizer: PromptTokenizer | undefined;
}

export async function chooseConstraint(src: ConstraintSources, request: GrammarRequest, responseFormat: Constraint | undefined, cancel: CancelSource): Promise<Constraint | undefined> {
  const { accepts, grammars } = src;
  if (grammars !== undefined) {
    if (accepts.includes("structural_tag")) {
      const tag = grammars.structuralTag(request);
      if (tag !== undefined) return { kind: "structural_tag", tag };
    }
    if (accepts.includes("lazy_gbnf")) {
      const lazy = grammars.lazy(request);
      if (lazy !== undefined) return { kind: "lazy_gbnf", grammar: lazy.grammar, triggers: await triggersOf(lazy, src.tokenizer, cancel) };
    }
    if (accepts.includes("gbnf")) {
      const grammar = grammars.full(request);
      if (grammar !== undefined) return { kind: "gbnf", grammar };
    }
  }
  return responseFormat !== undefined && accepts.includes(responseFormat.kind) ? responseFormat : undefined;
}

/**
 * A kept lazy grammar's triggers with their token ids, by grammar (the same object while the tools are
 * the same): looked up once, not per request. Kept only once every lookup has succeeded.
 */
const lazyTriggers = new WeakMap<LazyGrammar, { tokenizer: PromptTokenizer | undefined; triggers: GrammarTrigger[] }>();

async function triggersOf(lazy: LazyGrammar, tokenizer: PromptTokenizer | undefined, cancel: CancelSource): Promise<GrammarTrigger[]> {
  const kept = lazyTriggers.get(lazy);
  if (kept !== undefined && kept.tokenizer === tokenizer) return kept.triggers;
  const triggers = await Promise.all(lazy.triggers.map((t) => (t.kind === "word" ? wordTrigger(tokenizer, t.word, cancel) : t)));
  lazyTriggers.set(lazy, { tokenizer, triggers });
  return triggers;
}

/** Ids of marker texts per tokenizer: a marker is looked up once per server. */
const markerIds = new WeakMap<PromptTokenizer, Map<string, Promise<number | undefined>>>();

async function wordTrigger(tokenizer: PromptTokenizer | undefined, text: string, cancel: CancelSource): Promise<GrammarTrigger> {
  if (tokenizer === undefined) return { kind: "word", text };
  let ids = markerIds.get(tokenizer);
  if (ids === undefined) markerIds.set(tokenizer, (ids = new Map()));
  let id = ids.get(text);
  if (id === undefined) {
    // Special-token text is read as the token (as llama-server tokenizes a trigger word).
    // The client's AbortSignal is made only here, for a lookup not kept yet (client-gone.ts).
    id = tokenizer.tokenize(text, true, cancel.signal).then((t) => (t.length === 1 ? t[0] : undefined));
    // A failed lookup (the request was aborted, the backend's /tokenize is down) is not kept.
    id.catch(() => ids.delete(text));
    ids.set(text, id);
  }
  const token = await id;
  return token === undefined ? { kind: "word", text } : { kind: "word", text, token };
}
