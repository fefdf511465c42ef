/**
 * A quoted string being read by the value reader (value-reader.ts): its body decoded by the quote's
 * escape rules (dialects.ts), triple quotes, and Python's joining of adjacent literals (`'a' 'b'`).
 * The decoded text goes to a rope and, for a value, to a JSON string writer as it arrives, so a long
 * string streams. The reader closes the string (writes its key or value) when `complete` is set.
 */
import type { CompiledDialect, StringQuote } from "./dialects.js";
import { JsonStringWriter } from "./json-text.js";
import { TextRope } from "../rope.js";

/** A typed reading of a string's text, or undefined to keep it a string. */
export type StringRetype = (text: string) => { json: string; value: unknown } | undefined;

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
};
const JSON_ESCAPES: Record<string, string> = {
  "\\": "\\", '"': '"', "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t",
};
const BACKSLASH = 0x5c;

/** The single-character quote `ch` of the dialect, if it is one. */
export function singleQuote(c: CompiledDialect, ch: string): StringQuote | undefined {
  return c.quotes.get(ch)?.find((q) => q.quote.length === 1);
}

export class QuotedString {
  readonly kind = "string";
  /** The quote has been seen; in a dialect with concatenation the string waits to see whether another literal follows (`'a' 'b'`). */
  closed = false;
  /** The string is over: the reader closes it now. */
  complete = false;
  /** Set by scan when it consumed some text and must wait for more before going on. */
  stalled = false;
  /** Set when the body holds an escape that is not valid (or the input ended inside one). */
  error: string | undefined;
  /** Set by pushPlain: its text ended with a backslash, which the caller holds for the next push. */
  heldBackslash = false;
  /** The decoded text so far (a rope: a streamed string adds a piece per push). */
  readonly parts = new TextRope();
  /** Decoded text not yet moved to `parts` (escapes decode a few characters at a time). */
  buf = "";
  readonly writer = new JsonStringWriter();

  constructor(
    public quote: StringQuote,
    public triple: boolean,
    /** No escapes: the quote's own rule, or a Python `r` prefix (a backslash then only keeps the next character from closing the string). */
    public raw: boolean,
    /** Keys are collected, values are written as they arrive. */
    readonly isKey: boolean,
    /** A held argument value, typed once complete (see LiteralValueReaderOptions). */
    readonly retype: StringRetype | undefined,
  ) {}

  /**
   * The streaming fast path of the reader's pushPlainString: `s` has no quote and only one-character
   * escapes (a backslash that ends it is held: `heldBackslash`). Then it is read as scan would read it,
   * and the JSON text written is returned; otherwise nothing is read and the answer is undefined.
   */
  pushPlain(s: string): string | undefined {
    if (this.closed || this.isKey || this.raw || this.retype !== undefined || this.quote.quote.length !== 1 || this.buf !== "") return undefined;
    const q = this.quote.quote.charCodeAt(0);
    const escapes = this.quote.escapes === "json" ? JSON_ESCAPES : SIMPLE_ESCAPES;
    let decoded = "";
    let from = 0;
    let end = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === q) return undefined;
      if (c !== BACKSLASH) continue;
      if (i + 1 === s.length) {
        end = i;
        break;
      }
      const e = escapes[s[i + 1]!];
      if (e === undefined) return undefined;
      decoded += s.slice(from, i) + e;
      from = i + 2;
      i++;
    }
    if (from > 0) decoded += s.slice(from, end);
    else decoded = end === s.length ? s : s.slice(0, end);
    this.heldBackslash = end !== s.length;
    if (decoded === "") return "";
    this.parts.append(decoded);
    return this.writer.write(decoded);
  }

  /** Reads string content from `s[i]`; returns the next index (with `stalled` set to wait for more text). */
  scan(s: string, i: number, final: boolean, c: CompiledDialect): number {
    const quote = this.quote.quote;
    if (this.quote.escapes === "none") {
      // The body runs to the next quote: one native search.
      const end = s.indexOf(quote, i);
      if (end >= 0) {
        this.buf += s.slice(i, end);
        this.complete = true;
        return end + quote.length;
      }
      // Keep a tail that could be the start of the closing quote.
      let keep = 0;
      if (!final) {
        for (let k = Math.min(quote.length - 1, s.length - i); k > 0; k--) {
          if (quote.startsWith(s.slice(s.length - k))) {
            keep = k;
            break;
          }
        }
      }
      this.buf += s.slice(i, s.length - keep);
      return keep > 0 ? this.stall(s.length - keep) : s.length;
    }
    // One search for whichever comes first, a quote or a backslash: searching for each separately
    // would rescan the rest of the text at every escape.
    const stop = c.stops.get(quote)!;
    while (i < s.length) {
      stop.lastIndex = i;
      const m = stop.exec(s);
      const j = m === null ? s.length : m.index;
      if (j > i) {
        this.buf += s.slice(i, j);
        i = j;
        continue;
      }
      if (s[i] === "\\") {
        const n = this.escape(s, i, final);
        if (n < 0) return this.stall(i);
        if (this.error !== undefined) return i;
        i = n;
        continue;
      }
      // A quote.
      if (this.triple) {
        if (i + 3 > s.length && !final) return this.stall(i);
        if (s[i + 1] === quote && s[i + 2] === quote) {
          this.closed = true;
          return i + 3;
        }
        this.buf += quote;
        i++;
        continue;
      }
      this.closed = true;
      if (!c.d.concatenation) this.complete = true;
      return i + 1;
    }
    return i;
  }

  /**
   * After the closing quote (dialects with concatenation): another string literal continues the
   * string (`'a' 'b'`), anything else completes it. Returns the next index, or -1 to wait for more text.
   */
  join(s: string, i: number, final: boolean, c: CompiledDialect): number {
    while (i < s.length && /[ \t\r\n]/.test(s[i]!)) i++;
    if (i >= s.length) {
      if (!final) return -1;
      this.complete = true;
      return i;
    }
    const q = singleQuote(c, s[i]!);
    if (q !== undefined) {
      if (i + 2 >= s.length && !final) return -1;
      const ch = q.quote;
      this.quote = q;
      this.triple = c.d.tripleQuotes && s[i + 1] === ch && s[i + 2] === ch;
      this.raw = q.escapes === "none";
      this.closed = false;
      return i + (this.triple ? 3 : 1);
    }
    this.complete = true;
    return i;
  }

  /** Stops reading at `i` (text before it is consumed) until more text arrives. */
  private stall(i: number): number {
    this.stalled = true;
    return i;
  }

  private failAt(i: number, message: string): number {
    if (this.error === undefined) this.error = message;
    return i;
  }

  /** Decodes the escape at `s[i]` (a backslash); returns the next index, or -1 to wait for more text. */
  private escape(s: string, i: number, final: boolean): number {
    if (i + 1 >= s.length) return final ? this.failAt(i, "unterminated string") : -1;
    const c = s[i + 1]!;
    if (this.raw) {
      // In a raw string a backslash only keeps the next character from closing the string.
      this.buf += s.slice(i, i + 2);
      return i + 2;
    }
    if (this.quote.escapes === "json") {
      if (c === "u") return this.hexEscape(s, i, 4, final);
      const e = JSON_ESCAPES[c];
      if (e === undefined) return this.failAt(i, `invalid escape \\${c}`);
      this.buf += e;
      return i + 2;
    }
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      this.buf += simple;
      return i + 2;
    }
    if (c === "\n") return i + 2;
    if (c === "\r") {
      if (i + 2 >= s.length && !final) return -1;
      return s[i + 2] === "\n" ? i + 3 : i + 2;
    }
    if (c === "x") return this.hexEscape(s, i, 2, final);
    if (c === "u") return this.hexEscape(s, i, 4, final);
    if (c === "U") return this.hexEscape(s, i, 8, final);
    if (c >= "0" && c <= "7") {
      let j = i + 2;
      while (j < s.length && j < i + 4 && s[j]! >= "0" && s[j]! <= "7") j++;
      if (j < i + 4 && j === s.length && !final) return -1;
      this.buf += String.fromCodePoint(parseInt(s.slice(i + 1, j), 8));
      return j;
    }
    // Python keeps unknown escapes (`\d`, `\N{...}`) as written.
    this.buf += s.slice(i, i + 2);
    return i + 2;
  }

  private hexEscape(s: string, i: number, digits: number, final: boolean): number {
    const end = i + 2 + digits;
    if (end > s.length) return final ? this.failAt(i, "truncated escape") : -1;
    const hex = s.slice(i + 2, end);
    if (!/^[0-9a-fA-F]+$/.test(hex)) return this.failAt(i, `invalid escape \\${s[i + 1]}${hex}`);
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) return this.failAt(i, `invalid escape \\${s[i + 1]}${hex}`);
    // \uD83D\uDE00 arrives as two code units; the writer keeps the high one until its pair is written.
    this.buf += digits === 4 ? String.fromCharCode(cp) : String.fromCodePoint(cp);
    return end;
  }
}
