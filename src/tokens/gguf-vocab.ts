/**
 * A tokenizer from a GGUF file's own vocabulary (`tokenizer.ggml.*`), so a `.gguf` served without its
 * tokenizer.json still gets token ids. Built as the tokenizer.json llama.cpp's converter started from:
 *
 * - model `gpt2` (byte-level BPE: GPT-2, Llama 3, Qwen 2/3, DeepSeek V3): vocabulary = `tokens`,
 *   `merges` as written, the pre-tokenizer regex named by `tokenizer.ggml.pre` (the same names and
 *   patterns as llama.cpp's llama-vocab.cpp) followed by the byte-level mapping; Llama 3's `ignore_merges`.
 * - `token_type` CONTROL (3) -> a `special: true` added token, USER_DEFINED (4) -> a non-special added
 *   token (llama.cpp matches those even without `parse_special`, as Hugging Face matches non-special
 *   added tokens).
 *
 * - model `llama` (SentencePiece): tokens + scores for llama.cpp's merge-by-score algorithm (spm-encoder.ts).
 *
 * Other models (`bert`, ...) and unknown `pre` names are a typed error naming what is missing, so a
 * server can fall back to the backend's /tokenize instead of guessing.
 */
import { ChatwireError } from "../errors.js";
import type { AddedTokenJson, TokenizerJson } from "./tokenizer-json.js";

const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;

const GPT2 = String.raw`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`;
const LLAMA3 = String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const QWEN2 = String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
const DEEPSEEK_V3 = [
  String.raw`\p{N}{1,3}`,
  "[一-龥぀-ゟ゠-ヿ]+",
  String.raw`[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_` + "`" + String.raw`{|}~][A-Za-z]+|[^` + "\r\n" + String.raw`\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[` + "\r\n" + String.raw`]*|\s*[` + "\r\n" + String.raw`]+|\s+(?!\S)|\s+`,
];

interface PreTokenizerSpec {
  patterns: string[];
  ignoreMerges: boolean;
}

/** `tokenizer.ggml.pre` names (llama.cpp's) -> the split patterns applied before the byte-level mapping. */
const PRE_TOKENIZERS: Record<string, PreTokenizerSpec> = {
  default: { patterns: [GPT2], ignoreMerges: false },
  "gpt-2": { patterns: [GPT2], ignoreMerges: false },
  llama3: { patterns: [LLAMA3], ignoreMerges: true },
  "llama-v3": { patterns: [LLAMA3], ignoreMerges: true },
  "llama-bpe": { patterns: [LLAMA3], ignoreMerges: true },
  "falcon3": { patterns: [LLAMA3], ignoreMerges: true },
  qwen2: { patterns: [QWEN2], ignoreMerges: false },
  "deepseek-r1-qwen": { patterns: [QWEN2], ignoreMerges: false },
  "deepseek-v3": { patterns: DEEPSEEK_V3, ignoreMerges: false },
};

/** The metadata keys read (tokenizer.ggml.*, as gguf-file.ts reads them). */
export interface GgufVocabMetadata {
  "tokenizer.ggml.model"?: unknown;
  "tokenizer.ggml.pre"?: unknown;
  "tokenizer.ggml.tokens"?: unknown;
  "tokenizer.ggml.token_type"?: unknown;
  "tokenizer.ggml.merges"?: unknown;
  "tokenizer.ggml.scores"?: unknown;
  "tokenizer.ggml.add_space_prefix"?: unknown;
  [key: string]: unknown;
}

/** The model type a TokenizerJson from a `llama` GGUF carries (createTokenizer builds SpmEncoder for it). */
export const LLAMA_CPP_SPM = "LlamaCppSpm";

export function tokenizerJsonFromGguf(metadata: GgufVocabMetadata, origin = "GGUF"): TokenizerJson {
  const model = metadata["tokenizer.ggml.model"];
  if (model === "llama") return spmJson(metadata, origin);
  if (model !== "gpt2") {
    throw new ChatwireError("invalid_template", `${origin}: tokenizer.ggml.model ${JSON.stringify(model)} is not supported for token ids (only "gpt2", byte-level BPE, and "llama", SentencePiece); use the model's tokenizer.json or the backend's /tokenize`);
  }
  const preName = metadata["tokenizer.ggml.pre"] ?? "default";
  const pre = typeof preName === "string" && Object.prototype.hasOwnProperty.call(PRE_TOKENIZERS, preName) ? PRE_TOKENIZERS[preName] : undefined;
  if (pre === undefined) {
    throw new ChatwireError("invalid_template", `${origin}: tokenizer.ggml.pre ${JSON.stringify(preName)} is not known (known: ${Object.keys(PRE_TOKENIZERS).join(", ")}); use the model's tokenizer.json or the backend's /tokenize`);
  }
  const tokens = stringList(metadata["tokenizer.ggml.tokens"], "tokenizer.ggml.tokens", origin);
  const merges = stringList(metadata["tokenizer.ggml.merges"], "tokenizer.ggml.merges", origin);
  const types = metadata["tokenizer.ggml.token_type"];
  if (!Array.isArray(types) || types.length !== tokens.length) {
    throw new ChatwireError("invalid_template", `${origin}: tokenizer.ggml.token_type must list one type per token (${tokens.length})`);
  }
  const vocab: Record<string, number> = Object.create(null) as Record<string, number>;
  const added = addedTokens(tokens, types);
  tokens.forEach((token, id) => {
    if (!(token in vocab)) vocab[token] = id;
  });
  return {
    version: "1.0",
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: {
      type: "Sequence",
      pretokenizers: [
        ...pre.patterns.map((regex) => ({ type: "Split", pattern: { Regex: regex }, behavior: "Isolated", invert: false })),
        { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false },
      ],
    },
    post_processor: null,
    decoder: { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false },
    model: { type: "BPE", dropout: null, unk_token: null, fuse_unk: false, byte_fallback: false, ignore_merges: pre.ignoreMerges, vocab, merges },
  };
}

/** CONTROL and UNKNOWN tokens are special (llama.cpp parses them only with parse_special), USER_DEFINED are not. */
function addedTokens(tokens: readonly string[], types: readonly unknown[]): AddedTokenJson[] {
  const added: AddedTokenJson[] = [];
  tokens.forEach((token, id) => {
    const type = Number(types[id]);
    if (type === CONTROL || type === UNKNOWN || type === USER_DEFINED) {
      added.push({ id, content: token, special: type !== USER_DEFINED, normalized: false, lstrip: false, rstrip: false, single_word: false });
    }
  });
  return added;
}

/** `llama` (SentencePiece): tokens + scores for SpmEncoder, spaces as `▁`, byte fallback. */
function spmJson(metadata: GgufVocabMetadata, origin: string): TokenizerJson {
  const tokens = stringList(metadata["tokenizer.ggml.tokens"], "tokenizer.ggml.tokens", origin);
  const scores = metadata["tokenizer.ggml.scores"];
  const types = metadata["tokenizer.ggml.token_type"];
  if (!Array.isArray(scores) || scores.length !== tokens.length || !scores.every((s) => typeof s === "number")) {
    throw new ChatwireError("invalid_template", `${origin}: tokenizer.ggml.scores must list one number per token (${tokens.length})`);
  }
  if (!Array.isArray(types) || types.length !== tokens.length) {
    throw new ChatwireError("invalid_template", `${origin}: tokenizer.ggml.token_type must list one type per token (${tokens.length})`);
  }
  const addSpacePrefix = metadata["tokenizer.ggml.add_space_prefix"];
  return {
    added_tokens: addedTokens(tokens, types),
    normalizer: null,
    pre_tokenizer: null,
    model: { type: LLAMA_CPP_SPM, byte_fallback: true, tokens, scores, add_space_prefix: addSpacePrefix !== false },
  };
}

function stringList(value: unknown, key: string, origin: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) {
    throw new ChatwireError("invalid_template", `${origin}: ${key} must be a list of strings`);
  }
  return value as string[];
}
