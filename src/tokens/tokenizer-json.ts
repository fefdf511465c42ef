/**
 * The parts of a Hugging Face `tokenizer.json` chatwire reads. The encoder itself (normaliser,
 * pre-tokenizer, model) is @huggingface/tokenizers'; the added-token matching is ours (tokenizer.ts),
 * so that request data can be told apart from template text.
 */
import { ChatwireError } from "../errors.js";
import { jsonSyntaxError, notJsonMessage } from "../request/read-json.js";

export interface AddedTokenJson {
  id: number;
  content: string;
  /** Control token (`<|im_start|>`): protected from request data by default. */
  special?: boolean;
  /** Matched in the normalised text instead of the raw text. */
  normalized?: boolean;
  /** Whitespace before the token is absorbed into it (the preceding text is right-trimmed). */
  lstrip?: boolean;
  /** Whitespace after the token is absorbed into it (the following text is left-trimmed). */
  rstrip?: boolean;
  /** Matches only as a whole word. */
  single_word?: boolean;
  [key: string]: unknown;
}

export interface TokenizerJson {
  model: unknown;
  added_tokens?: AddedTokenJson[];
  normalizer?: unknown;
  pre_tokenizer?: unknown;
  [key: string]: unknown;
}

/** Parses a tokenizer.json text; `name` (a path) is for the error message. */
export function parseTokenizerJson(text: string, name: string): TokenizerJson {
  // Plain JSON.parse: the tokenizer library wants numbers, not the PyFloat values readJson makes for templates.
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ChatwireError("io_error", notJsonMessage(name, jsonSyntaxError(text, err)));
  }
  if (typeof json !== "object" || json === null || Array.isArray(json) || !("model" in json)) {
    throw new ChatwireError("io_error", `${name}: not a tokenizer.json (no "model")`);
  }
  const added = (json as { added_tokens?: unknown }).added_tokens;
  if (added !== undefined && !(Array.isArray(added) && added.every(isAddedToken))) {
    throw new ChatwireError("io_error", `${name}: added_tokens must be a list of {id, content} objects`);
  }
  return json as TokenizerJson;
}

function isAddedToken(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const t = value as { id?: unknown; content?: unknown };
  return Number.isInteger(t.id) && typeof t.content === "string";
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The id a tokenizer.json's post-processor puts first by itself when a backend encodes with special
 * tokens (TemplateProcessing `single` starting with a special token, alone or in a Sequence), if any.
 */
export function postProcessorBosId(json: TokenizerJson): number | undefined {
  const pp = json.post_processor;
  const processors = isRecord(pp) && pp.type === "Sequence" && Array.isArray(pp.processors) ? (pp.processors as unknown[]) : [pp];
  for (const p of processors) {
    if (!isRecord(p) || p.type !== "TemplateProcessing" || !Array.isArray(p.single)) continue;
    const first: unknown = p.single[0];
    const name = isRecord(first) && isRecord(first.SpecialToken) ? first.SpecialToken.id : undefined;
    const entry = typeof name === "string" && isRecord(p.special_tokens) ? p.special_tokens[name] : undefined;
    const ids = isRecord(entry) && Array.isArray(entry.ids) ? entry.ids : undefined;
    if (typeof ids?.[0] === "number") return ids[0];
  }
  return undefined;
}
