/**
 * Character offsets of the tokens a model produced for one piece of text, recovered from the token
 * strings: byte-level vocabularies (GPT-2, Llama 3, Qwen) spell each UTF-8 byte as one character;
 * SentencePiece-style ones spell text with `▁` for a space and `<0xNN>` for byte-fallback pieces. The
 * tokens' bytes add up to the piece's UTF-8 bytes (plus a prefix space some pre-tokenizers add), which
 * gives each token's start and end in UTF-16 units, as transformers' `char_to_token` sees them.
 */
export type Span = [start: number, end: number];

/** GPT-2's `bytes_to_unicode`, inverted: the byte each byte-level character stands for. */
const BYTE_OF_CHAR: ReadonlyMap<number, number> = (() => {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const map = new Map<number, number>();
  const seen = new Set(printable);
  printable.forEach((b) => map.set(b, b));
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (seen.has(b)) continue;
    map.set(256 + n, b);
    n++;
  }
  return map;
})();

const BYTE_FALLBACK = /^<0x[0-9A-Fa-f]{2}>$/;
const encoder = new TextEncoder();

export interface SurfaceRules {
  byteLevel: boolean;
  byteFallback: boolean;
  /** Metaspace pre-tokenizer: its `▁` stands for one space of the input. */
  metaspace: string | undefined;
}

function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** How many input bytes a token string stands for. */
function surfaceBytes(token: string, rules: SurfaceRules): number {
  if (rules.byteLevel) {
    let n = 0;
    for (const ch of token) n += BYTE_OF_CHAR.has(ch.codePointAt(0)!) ? 1 : utf8Length(ch);
    return n;
  }
  if (rules.byteFallback && BYTE_FALLBACK.test(token)) return 1;
  if (rules.metaspace !== undefined && token.includes(rules.metaspace)) {
    const n = token.split(rules.metaspace).length - 1;
    return utf8Length(token) - n * (utf8Length(rules.metaspace) - 1);
  }
  return utf8Length(token);
}

/** UTF-16 offset of every UTF-8 byte boundary of `text` (index = byte offset; inside a character: its start). */
function byteToUnit(text: string): Int32Array {
  const bytes = encoder.encode(text).length;
  const map = new Int32Array(bytes + 1);
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < text.length;
    const len = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
    for (let k = 0; k < len; k++) map[b + k] = i;
    b += len;
    if (pair) i++;
  }
  map[bytes] = text.length;
  return map;
}

/** Offsets within `text` of `tokens` (which encode exactly `text`, maybe after an added prefix). */
export function tokenSpans(text: string, tokens: readonly string[], rules: SurfaceRules): Span[] {
  const units = byteToUnit(text);
  const total = units.length - 1;
  const sizes = tokens.map((t) => surfaceBytes(t, rules));
  const extra = Math.max(0, sizes.reduce((a, b) => a + b, 0) - total); // a prefix space the pre-tokenizer added
  let at = -extra;
  return sizes.map((size) => {
    const start = Math.min(Math.max(at, 0), total);
    at += size;
    const end = Math.min(Math.max(at, 0), total);
    // A token that ends inside a character covers that character (as the Rust offsets do).
    return [units[start]!, end > 0 && units[end]! === units[end - 1]! && end < total ? nextUnit(units, end) : units[end]!];
  });
}

function nextUnit(units: Int32Array, byte: number): number {
  let b = byte;
  while (b < units.length - 1 && units[b] === units[byte - 1]) b++;
  return units[b]!;
}
