/**
 * Token ids through any tokenizer that can encode a piece of text with or without special-token
 * parsing: llama-server's `/tokenize` (`parse_special`), llama.cpp's `llama_tokenize`, or our own
 * ChatTokenizer. The prompt is cut into segments with provenance: each special token the template wrote
 * is its own segment, encoded with special parsing on; all the text between them (template text and
 * request data alike) is encoded with it off, so special-token text from data stays ordinary text while
 * non-special added tokens (`<tool_call>`) still match, as llama.cpp does for `USER_DEFINED` tokens.
 * Text between two special tokens is one segment, so BPE sees it whole, as it would in one call.
 *
 * Which texts are special tokens: the vocabulary knows (ChatTokenizer, a GGUF); a backend that only
 * tokenizes can be asked (`probeSpecialTexts` over `candidateSpecialTexts` of the template).
 */
import { escapeSpecialText, escapeTable, restoreSpecialText, type EscapeTable } from "./escape.js";
import type { Renderer } from "./render-tokens.js";
import { TextTrie } from "./trie.js";

export interface PromptSegment {
  text: string;
  /** True for a special token the template wrote: encode with special-token parsing on. */
  special: boolean;
}

/** Encodes one piece of text; `parseSpecial` turns special-token text into special tokens. */
export interface TextTokenizer {
  tokenize(text: string, parseSpecial: boolean): number[] | Promise<number[]>;
}

/** The special-token texts, for escaping and cutting (build once per model and reuse). */
export interface SpecialTexts {
  readonly texts: readonly string[];
  readonly table: EscapeTable;
  readonly trie: TextTrie;
}

export function specialTexts(texts: Iterable<string>): SpecialTexts {
  const list = [...new Set(texts)].filter((t) => t !== "");
  return { texts: list, table: escapeTable(list), trie: new TextTrie(list) };
}

/** Renders `request` with its data escaped and cuts the prompt into segments. */
export function renderSegments<O>(template: Renderer<O>, request: unknown, specials: SpecialTexts, options?: O): PromptSegment[] {
  return promptSegments(template.render(escapeSpecialText(request, specials.table), options), specials);
}

/** Segments of a prompt rendered from an escaped request (see renderSegments). */
export function promptSegments(escapedPrompt: string, specials: SpecialTexts): PromptSegment[] {
  const segments: PromptSegment[] = [];
  let last = 0;
  for (const m of specials.trie.matches(escapedPrompt)) {
    if (m.start > last) segments.push({ text: restoreSpecialText(escapedPrompt.slice(last, m.start), specials.table), special: false });
    segments.push({ text: m.text, special: true });
    last = m.end;
  }
  if (last < escapedPrompt.length) segments.push({ text: restoreSpecialText(escapedPrompt.slice(last), specials.table), special: false });
  return segments;
}

/** The ids of all segments, in order (special-token segments are looked up once per text). */
export async function tokenizeSegments(segments: readonly PromptSegment[], tokenizer: TextTokenizer): Promise<number[]> {
  const specialIds = new Map<string, Promise<number[]>>();
  const parts = segments.map((s) => {
    if (!s.special) return Promise.resolve(tokenizer.tokenize(s.text, false));
    let ids = specialIds.get(s.text);
    if (ids === undefined) {
      ids = Promise.resolve(tokenizer.tokenize(s.text, true));
      specialIds.set(s.text, ids);
    }
    return ids;
  });
  return (await Promise.all(parts)).flat();
}

/**
 * Texts in a template that look like special tokens (`<|im_start|>`, `<｜User｜>`, `[INST]`,
 * `<start_of_turn>`, `<tool_call>`), plus the special tokens the template is given (bos/eos...).
 * Candidates only: `probeSpecialTexts` keeps those the backend's vocabulary treats as special.
 */
export function candidateSpecialTexts(templateSource: string, specialTokens: Readonly<Record<string, string>> = {}): string[] {
  const found = new Set<string>(Object.values(specialTokens).filter((t) => t !== ""));
  const pattern = /<\|[^|<>\s]{1,64}\|>|<｜[^｜<>]{1,64}｜>|\[\/?[A-Z][A-Z_]{1,40}\]|<\/?[a-z][a-z0-9_]{1,40}>/g;
  for (const m of templateSource.matchAll(pattern)) found.add(m[0]);
  return [...found];
}

/**
 * Of the candidates, those a tokenizer treats as special: one id with special parsing, something else
 * without it (non-special added tokens are one id both ways and are left out: data may produce them).
 */
export async function probeSpecialTexts(candidates: readonly string[], tokenizer: TextTokenizer): Promise<SpecialTexts> {
  const checks = await Promise.all(
    candidates.map(async (text) => {
      const [withSpecial, without] = await Promise.all([tokenizer.tokenize(text, true), tokenizer.tokenize(text, false)]);
      return withSpecial.length === 1 && !(without.length === 1 && without[0] === withSpecial[0]) ? text : undefined;
    }),
  );
  return specialTexts(checks.filter((t): t is string => t !== undefined));
}

/**
 * A TextTokenizer over llama-server's `POST /tokenize` (`{content, add_special: false, parse_special}`
 * -> `{tokens}`). `fetchImpl` defaults to the global fetch.
 */
export function llamaServerTokenizer(baseUrl: string, fetchImpl: typeof fetch = fetch): TextTokenizer {
  const url = `${baseUrl.replace(/\/+$/, "")}/tokenize`;
  return {
    async tokenize(text, parseSpecial) {
      const response = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ content: text, add_special: false, parse_special: parseSpecial }),
      });
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      const body = (await response.json()) as { tokens?: unknown };
      if (!Array.isArray(body.tokens) || !body.tokens.every((t) => Number.isInteger(t))) throw new Error(`${url}: answer has no "tokens" list of ids`);
      return body.tokens as number[];
    },
  };
}
