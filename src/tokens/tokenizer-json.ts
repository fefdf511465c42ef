/**
 * The parts of a Hugging Face `tokenizer.json` chatwire reads, and the @huggingface/tokenizers instances
 * built from it: the full tokenizer (matches added tokens such as `<|im_start|>`) and a plain one with no
 * added tokens, whose normaliser, pre-tokenizer and model encode any text as ordinary text. Both are
 * cached per JSON object, so a server building them once per model pays nothing per request.
 */
import { Tokenizer } from "@huggingface/tokenizers";

export interface AddedTokenJson {
  id: number;
  content: string;
  special?: boolean;
  /** Whitespace before the token is absorbed into it (the preceding text is right-trimmed). */
  lstrip?: boolean;
  /** Whitespace after the token is absorbed into it (the following text is left-trimmed). */
  rstrip?: boolean;
  [key: string]: unknown;
}

export interface TokenizerJson {
  model: unknown;
  added_tokens?: AddedTokenJson[];
  [key: string]: unknown;
}

export interface LoadedTokenizer {
  full: Tokenizer;
  plain: Tokenizer;
  /** Added-token text -> its definition; every added token is a control token for provenance purposes. */
  controls: Map<string, AddedTokenJson>;
  /** Added-token texts ordered by id: the index is what an escape placeholder refers to. */
  controlTexts: string[];
}

const cache = new WeakMap<TokenizerJson, LoadedTokenizer>();

export function loadTokenizer(json: TokenizerJson): LoadedTokenizer {
  let loaded = cache.get(json);
  if (loaded === undefined) {
    const added = [...(json.added_tokens ?? [])].sort((a, b) => a.id - b.id);
    loaded = {
      full: new Tokenizer(json, {}),
      plain: new Tokenizer({ ...json, added_tokens: [] }, {}),
      controls: new Map(added.map((t) => [t.content, t])),
      controlTexts: added.map((t) => t.content),
    };
    cache.set(json, loaded);
  }
  return loaded;
}
