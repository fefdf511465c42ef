/**
 * A tokenizer built once from a tokenizer.json (or a GGUF vocabulary turned into one), that encodes
 * rendered prompts with provenance.
 *
 * The encoder (normaliser, pre-tokenizer, BPE/Unigram/WordPiece model) is @huggingface/tokenizers',
 * built with no added tokens; the added-token matching is done here, as the Rust library does it
 * (`AddedVocabulary`): leftmost-longest over the raw text for tokens with `normalized: false`, then over
 * each normalised piece for the `normalized: true` ones, honouring lstrip / rstrip / single_word. Then
 * each text piece goes through the pre-tokenizer (told the piece's section index, which Metaspace's
 * `prepend_scheme: "first"` depends on) and the model. A prompt with no escape placeholders thus gets
 * exactly `tokenizer.encode(prompt, add_special_tokens=False)`.
 *
 * Provenance: the request's data is escaped before rendering (escape.ts). Text of a protected token in
 * the data sits in the prompt as a placeholder, so no matcher can see it; it is put back inside its text
 * piece, after the added-token matching and before the model, and encoded as ordinary text.
 *
 * Building the encoder is the expensive part (Gemma 3: a 33 MB JSON, 262k tokens, 514k merges, ~1 s):
 * it happens once per tokenizer (load-tokenizer.ts caches by path). The library is imported on first
 * use, so the chatwire core stays browser-bundleable without it.
 */
import { BoundedCache } from "../bounded-cache.js";
import { ChatwireError } from "../errors.js";
import { escapeSpecialText, escapeTable, escapeText, offsetMapper, placeholdersIn, PLACEHOLDER_LENGTH, restoreSpecialText, type EscapeTable } from "./escape.js";
import { tokenSpans, type Span, type SurfaceRules } from "./token-offsets.js";
import { postProcessorBosId, type AddedTokenJson, type TokenizerJson } from "./tokenizer-json.js";
import { TextTrie } from "./trie.js";
import { LLAMA_CPP_SPM } from "./gguf-vocab.js";

/**
 * Which added tokens request data may not produce:
 * - "special" (default): the `special: true` ones (control tokens such as `<|im_start|>`). Non-special
 *   added tokens (Qwen's `<tool_call>`, `<think>`) match in data as they do in Hugging Face and llama.cpp.
 * - "added": every added token (data is encoded as if the vocabulary had none).
 * - "none": data is treated like template text (the caller trusts it).
 */
export type ProtectMode = "special" | "added" | "none";

export interface TokenizeOptions {
  protect?: ProtectMode;
}

export interface Encoded {
  ids: number[];
  /** The prompt with data text put back (what `render` would have printed). */
  text: string;
  /** Per token, its [start, end) in `text` (UTF-16 units), when asked for. */
  offsets?: Span[];
}

/**
 * The encoder pieces used (what an @huggingface/tokenizers `Tokenizer` built with no added tokens has):
 * kept structural so the public types do not need the optional dependency.
 */
export interface TextEncoderParts {
  normalizer: { _call(text: string): string } | null;
  pre_tokenizer: { pre_tokenize(text: string, options: { section_index: number }): string[] } | null;
  model: { _call(words: string[]): string[] } | null;
  token_to_id(token: string): number | undefined;
}

type Piece = { token: AddedTokenJson; start: number; end: number } | { token: undefined; start: number; end: number };

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * Ids of text sections encoded before, kept per tokenizer: a server encodes the same system prompt,
 * tools and history again on every turn, and the model (pre-tokenizer and BPE) was most of a prompt's
 * encoding time. Bounded by entries and by bytes held: the key's characters (two bytes at most each) and
 * the ids (eight bytes at most each), plus an entry's own overhead. Sections longer than MAX_SECTION
 * are encoded afresh.
 */
const MAX_SECTIONS = 4096;
const MAX_SECTION_BYTES = 4 << 20;
const MAX_SECTION = 1 << 16;
const sectionBytes = (key: string, ids: readonly number[]): number => 2 * key.length + 8 * ids.length + 96;

export class ChatTokenizer {
  /** Added tokens by id. */
  readonly addedTokens: readonly AddedTokenJson[];
  /** Ids of the `special: true` added tokens. */
  readonly specialIds: ReadonlySet<number>;
  /** The id the post-processor puts first by itself (a BOS a backend adds when it encodes with special tokens), if any. */
  readonly addedBosId: number | undefined;
  private readonly byContent = new Map<string, AddedTokenJson>();
  private readonly byNormalized = new Map<string, AddedTokenJson>();
  private readonly rawTrie: TextTrie;
  private readonly normalizedTrie: TextTrie;
  private readonly tables = new Map<ProtectMode, EscapeTable>();
  private readonly surface: SurfaceRules;
  private readonly sections = new BoundedCache<string, readonly number[]>(MAX_SECTIONS, MAX_SECTION_BYTES, sectionBytes);

  constructor(
    private readonly encoder: TextEncoderParts,
    json: TokenizerJson,
  ) {
    this.addedTokens = [...(json.added_tokens ?? [])].sort((a, b) => a.id - b.id);
    for (const t of this.addedTokens) if (!this.byContent.has(t.content)) this.byContent.set(t.content, t);
    this.specialIds = new Set(this.addedTokens.filter((t) => t.special === true).map((t) => t.id));
    this.addedBosId = postProcessorBosId(json);
    this.rawTrie = new TextTrie(this.addedTokens.filter((t) => t.normalized !== true).map((t) => t.content));
    for (const t of this.addedTokens) {
      const key = t.normalized === true ? this.normalize(t.content) : undefined;
      if (key !== undefined && !this.byNormalized.has(key)) this.byNormalized.set(key, t);
    }
    this.normalizedTrie = new TextTrie(this.byNormalized.keys());
    const model = (json.model ?? {}) as { byte_fallback?: unknown };
    const pre = JSON.stringify(json.pre_tokenizer ?? null);
    const metaspace = /"type":"Metaspace"/.test(pre) ? (/"replacement":"([^"]+)"/.exec(pre)?.[1] ?? "\u2581") : undefined;
    this.surface = { byteLevel: /"type":"ByteLevel"/.test(pre), byteFallback: model.byte_fallback === true, metaspace };
  }

  /** The id of an added token's text, or undefined. */
  addedTokenId(text: string): number | undefined {
    return this.byContent.get(text)?.id;
  }

  /** The escape table for a protection mode (the texts request data may not turn into tokens). */
  escapeTable(mode: ProtectMode = "special"): EscapeTable {
    let table = this.tables.get(mode);
    if (table === undefined) {
      const all = this.addedTokens.map((t) => t.content);
      const escaped = mode === "none" ? [] : this.addedTokens.filter((t) => mode === "added" || t.special === true).map((t) => t.content);
      table = escapeTable(all, escaped);
      this.tables.set(mode, table);
    }
    return table;
  }

  /** A deep copy of a request with protected token text in its strings replaced by placeholders. */
  protect<T>(request: T, mode: ProtectMode = "special"): T {
    return mode === "none" ? request : escapeSpecialText(request, this.escapeTable(mode));
  }

  /** The text of a prompt rendered from a protected request, as the plain render would have printed it. */
  restore(prompt: string, mode: ProtectMode = "special"): string {
    return restoreSpecialText(prompt, this.escapeTable(mode));
  }

  /** TextTokenizer (segments.ts): one piece of text, special-token text parsed or left as ordinary text. */
  tokenize(text: string, parseSpecial: boolean): number[] {
    return parseSpecial ? this.encode(text, { protect: "none" }) : this.encode(escapeText(text, this.escapeTable("special")));
  }

  /** The `special: true` token texts (what request data may not produce by default). */
  specialTexts(): string[] {
    return this.addedTokens.filter((t) => t.special === true).map((t) => t.content);
  }

  /** Token ids of a prompt rendered from `protect(request, mode)` (or of any prompt: all of it is template text). */
  encode(prompt: string, options: TokenizeOptions = {}): number[] {
    return this.encodeDetailed(prompt, options, false).ids;
  }

  /** Ids, restored text and (when `offsets`) each token's span in the restored text. */
  encodeDetailed(escapedPrompt: string, options: TokenizeOptions = {}, offsets = true): Encoded {
    const mode = options.protect ?? "special";
    const table = this.escapeTable(mode);
    // Trusted data: placeholders (from any mode) become their text before added tokens are matched.
    const prompt = mode === "none" ? restoreSpecialText(escapedPrompt, table) : escapedPrompt;
    const ids: number[] = [];
    const spans: Span[] | undefined = offsets ? [] : undefined;
    const toText = offsetMapper(prompt, table);
    this.pieces(prompt, this.rawTrie).forEach((piece, index) => {
      if (piece.token !== undefined) {
        ids.push(piece.token.id);
        spans?.push([toText(piece.start), toText(piece.end)]);
      } else if (piece.end > piece.start) {
        const section = prompt.slice(piece.start, piece.end);
        if (spans === undefined && section.length <= MAX_SECTION) {
          // Only Metaspace's `prepend_scheme: "first"` reads the index, and only whether it is 0.
          // The key is a copy: the section is a view of the prompt, and would keep all of it alive.
          const key = (" " + (index === 0 ? "0" : "1") + section).slice(1);
          for (const id of this.sections.get(key, () => this.sectionIds(section, index, table))) ids.push(id);
        } else {
          this.encodeSection(section, index, table, ids, spans, (i) => toText(piece.start + i));
        }
      }
    });
    const result: Encoded = { ids, text: restoreSpecialText(prompt, table) };
    if (spans !== undefined) result.offsets = spans;
    return result;
  }

  /** The ids of one text section (no offsets). */
  private sectionIds(section: string, index: number, table: EscapeTable): readonly number[] {
    const ids: number[] = [];
    this.encodeSection(section, index, table, ids, undefined, (i) => i);
    return ids;
  }

  /** Added-token pieces and the text between them, with lstrip / rstrip whitespace moved into the tokens. */
  private pieces(text: string, trie: TextTrie): Piece[] {
    const pieces: Piece[] = [];
    let last = 0;
    for (const m of trie.matches(text)) {
      const token = this.tokenFor(m.text, trie);
      if (token === undefined) continue;
      if (token.single_word === true && (isWordChar(text, m.start - 1) || isWordChar(text, m.end))) continue;
      let start = m.start;
      let end = m.end;
      if (token.lstrip === true) while (start > last && /\s/.test(text[start - 1]!)) start--;
      if (token.rstrip === true) while (end < text.length && /\s/.test(text[end]!)) end++;
      pieces.push({ token: undefined, start: last, end: start }, { token, start, end });
      last = end;
    }
    pieces.push({ token: undefined, start: last, end: text.length });
    return pieces;
  }

  private tokenFor(matched: string, trie: TextTrie): AddedTokenJson | undefined {
    if (trie === this.rawTrie) return this.byContent.get(matched);
    return this.byNormalized.get(matched);
  }

  /**
   * One text section (between raw-matched added tokens): normalise, split at normalised added tokens,
   * put data text back, pre-tokenize and encode each piece. Offsets: normalisation is taken as length-
   * preserving when it is (NFC of already composed text, `" "` -> `"▁"`); otherwise spans are scaled.
   */
  private encodeSection(escaped: string, sectionIndex: number, table: EscapeTable, ids: number[], spans: Span[] | undefined, toText: (i: number) => number): void {
    const normalized = this.normalize(escaped);
    if (normalized === "") return;
    const scale = normalized.length === escaped.length ? 1 : escaped.length / normalized.length;
    const at = (i: number) => toText(Math.round(i * scale));
    for (const piece of this.pieces(normalized, this.normalizedTrie)) {
      if (piece.token !== undefined) {
        ids.push(piece.token.id);
        spans?.push([at(piece.start), at(piece.end)]);
        continue;
      }
      if (piece.end === piece.start) continue;
      const escapedPiece = normalized.slice(piece.start, piece.end);
      const text = restoreNormalized(escapedPiece, table, (t) => this.normalize(t));
      const tokens = this.model(text, sectionIndex);
      for (const token of tokens) ids.push(this.idOf(token));
      if (spans === undefined) continue;
      if (scale === 1) {
        // Normalisation kept lengths: the restored piece lines up with the restored prompt.
        const base = at(piece.start);
        for (const [s, e] of tokenSpans(text, tokens, this.surface)) spans.push([base + s, base + e]);
      } else {
        const back = restoredToEscaped(escapedPiece, table, (t) => this.normalize(t));
        for (const [s, e] of tokenSpans(text, tokens, this.surface)) spans.push([at(piece.start + back(s)), at(piece.start + back(e))]);
      }
    }
  }

  private normalize(text: string): string {
    const n = this.encoder.normalizer;
    return n === null ? text : n._call(text);
  }

  private model(text: string, sectionIndex: number): string[] {
    const { pre_tokenizer: pre, model } = this.encoder;
    if (model === null) return [];
    const words = pre === null ? [text] : pre.pre_tokenize(text, { section_index: sectionIndex });
    return model._call(words);
  }

  private idOf(token: string): number {
    const id = this.encoder.token_to_id(token);
    if (id === undefined) {
      throw new ChatwireError("invalid_template", `tokenizer: its model produced ${JSON.stringify(token)}, which is not in its vocabulary`);
    }
    return id;
  }
}

function isWordChar(text: string, i: number): boolean {
  return i >= 0 && i < text.length && WORD_CHAR.test(text[i]!);
}

/** Placeholders in `text` replaced by the (normalised) data text they stand for. */
function restoreNormalized(text: string, table: EscapeTable, normalize: (t: string) => string): string {
  const found = placeholdersIn(text, table);
  if (found.length === 0) return text;
  let out = "";
  let last = 0;
  for (const p of found) {
    out += text.slice(last, p.start) + normalize(p.text);
    last = p.start + PLACEHOLDER_LENGTH;
  }
  return out + text.slice(last);
}

/** Maps an offset in the restored text back to the escaped text (inside data text: its placeholder's start or end). */
function restoredToEscaped(text: string, table: EscapeTable, normalize: (t: string) => string): (i: number) => number {
  const found = placeholdersIn(text, table).map((p) => ({ start: p.start, length: normalize(p.text).length }));
  if (found.length === 0) return (i) => i;
  return (i) => {
    let shift = 0;
    for (const p of found) {
      const restoredStart = p.start + shift;
      if (i < restoredStart) break;
      if (i < restoredStart + p.length) return i === restoredStart ? p.start : p.start + PLACEHOLDER_LENGTH;
      shift += p.length - PLACEHOLDER_LENGTH;
    }
    return i - shift;
  };
}

/** Builds the encoder from a tokenizer.json; imports @huggingface/tokenizers on first use. */
export async function createTokenizer(json: TokenizerJson): Promise<ChatTokenizer> {
  const model = json.model as { type?: unknown; tokens?: string[]; scores?: number[]; add_space_prefix?: boolean } | null;
  if (model?.type === LLAMA_CPP_SPM) {
    const { SpmEncoder } = await import("./spm-encoder.js");
    return new ChatTokenizer(new SpmEncoder(model.tokens ?? [], model.scores ?? [], model.add_space_prefix !== false), json);
  }
  let mod: typeof import("@huggingface/tokenizers");
  try {
    mod = await import("@huggingface/tokenizers");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
    throw new ChatwireError(
      missing ? "missing_dependency" : "io_error",
      `token ids need the optional package @huggingface/tokenizers (npm install @huggingface/tokenizers): ${(err as Error).message}`,
    );
  }
  let encoder: TextEncoderParts;
  try {
    encoder = new mod.Tokenizer({ ...json, added_tokens: [] }, {});
  } catch (err) {
    throw new ChatwireError("io_error", `not a usable tokenizer.json (${(err as Error).message})`);
  }
  return new ChatTokenizer(encoder, json);
}
