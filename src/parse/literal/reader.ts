/**
 * The one streaming literal reader. A dialect record (dialects.ts) says how strings are quoted and
 * escaped, which bare words are values, how numbers are spelled, what a dict key may be and how a
 * call's argument list is written; the reader itself knows no dialect by name.
 *
 * What is read (`LiteralTop`):
 * - `value`: one value, complete at the end of the input (finish());
 * - `bracketed`: one value that starts with a bracket, complete at its closing bracket;
 * - `args`: a call's argument list after its opening bracket (`a=1, b='x')` in Python,
 *   `a:1,b:<escape>x<escape>}` in FunctionGemma), complete at the closing bracket, written as a JSON object;
 * - `extent`: where one value ends, without reading it: strings (with their escapes) and bracket depth
 *   only, so that a caller holding the text (JSON arguments, kept as the model wrote them) can parse it
 *   once with JSON.parse. It also says where each string directly inside an object starts and ends
 *   (`members`) and where an open string began (`openString`).
 *
 * The first three write the equivalent JSON text as they read (Python `json.dumps` separators `", "`
 * and `": "`, non-ASCII characters kept), so a long string argument streams, and hold the typed value
 * once done. A number keeps the model's spelling when that is valid JSON (`3.0` stays `3.0`); other
 * spellings are normalised.
 *
 * Work is linear: each character is looked at once, except a few characters of lookahead (a quote that
 * might open a triple-quoted string, an escape sequence, a multi-character quote token) kept until the
 * next push when a push ends in the middle of them. Long string bodies are skipped with native searches.
 */
import { escapeClass } from "../../regexp-escape.js";
import { literalDialect } from "./dialects.js";
import type { LiteralDialect, LiteralDialectName, StringQuote } from "./dialects.js";
import { JsonStringWriter, readNumber } from "./json-text.js";
import { TextRope } from "../rope.js";

export type LiteralTop = "value" | "bracketed" | "args" | "extent";

/** A typed reading of a string's text, or undefined to keep it a string. */
export type StringRetype = (text: string) => { json: string; value: unknown } | undefined;

export interface LiteralReaderOptions {
  /**
   * For `args`: the retyping of a quoted value of argument `name`, when the caller types quoted values
   * (a dialect with `quotedValuesTyped`, by the tool's schema). Such a value is held until its string
   * closes instead of streamed.
   */
  retypeArgument?: (name: string) => StringRetype | undefined;
}
export type ExtentKind = "object" | "array" | "string" | "scalar";

type FrameKind = "root" | "list" | "tuple" | "dict" | "args";

interface Frame {
  kind: FrameKind;
  /** value: a value may start; key: a key may start; sep: after a key, before `:`/`=`; after: after a value. */
  state: "value" | "key" | "sep" | "after";
  /** Items written so far (for the `, ` separator). */
  n: number;
  items: unknown[] | null;
  obj: Record<string, unknown> | null;
  key: string;
}

interface StringToken {
  kind: "string";
  quote: StringQuote;
  triple: boolean;
  /** No escapes: the quote's own rule, or a Python `r` prefix (a backslash then only keeps the next character from closing the string). */
  raw: boolean;
  /** Keys are collected, values are written as they arrive. */
  isKey: boolean;
  /** A held argument value, typed once complete (see LiteralReaderOptions). */
  retype: StringRetype | undefined;
  /** The quote has been seen; in a dialect with concatenation the string waits to see whether another literal follows (`'a' 'b'`). */
  closed: boolean;
  /** The decoded text so far (a rope: a streamed string adds a piece per push). */
  parts: TextRope;
  /** Decoded text not yet moved to `parts` (escapes decode a few characters at a time). */
  buf: string;
  writer: JsonStringWriter;
}

interface WordToken {
  kind: "word";
  text: string;
  isKey: boolean;
}

type Token = StringToken | WordToken;

/** What the reader derives once from a dialect record. */
interface Compiled {
  readonly d: LiteralDialect;
  /** Quotes by their first character. */
  readonly quotes: ReadonlyMap<string, readonly StringQuote[]>;
  /** For each single-character quote with escapes: a search for it or a backslash. */
  readonly stops: ReadonlyMap<string, RegExp>;
  /** Characters a value may start with (for `extent` readers). */
  readonly valueStart: ReadonlySet<string>;
  readonly closers: ReadonlySet<string>;
}

const compiledDialects = new WeakMap<LiteralDialect, Compiled>();

function compile(d: LiteralDialect): Compiled {
  const known = compiledDialects.get(d);
  if (known !== undefined) return known;
  const quotes = new Map<string, StringQuote[]>();
  const stops = new Map<string, RegExp>();
  for (const q of d.strings) {
    const first = q.quote[0]!;
    quotes.set(first, [...(quotes.get(first) ?? []), q]);
    if (q.quote.length === 1 && q.escapes !== "none") stops.set(q.quote, new RegExp(`[${escapeClass(q.quote)}\\\\]`, "g"));
  }
  const valueStart = new Set<string>(["{", "[", "-", ..."0123456789", ...quotes.keys(), ...Object.keys(d.constants).map((k) => k[0]!)]);
  if (d.tuples) valueStart.add("(");
  const closers = new Set(["]", "}", ")"]);
  if (d.args !== undefined) closers.add(d.args.close);
  const c: Compiled = { d, quotes, stops, valueStart, closers };
  compiledDialects.set(d, c);
  return c;
}

const MAX_DEPTH = 256;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const STRING_PREFIX = /^(?:r|u|R|U)$/;
const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
};
const JSON_ESCAPES: Record<string, string> = {
  "\\": "\\", '"': '"', "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t",
};
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
/** Below this many characters a plain loop beats a regex search (streaming pushes are a few characters). */
const SHORT = 32;

export class LiteralReader {
  /** Set when the reader met something that is not a literal; nothing more is read after it. */
  error: string | undefined;
  /**
   * With `error`: how many characters of earlier pushes (text push held, such as a backslash that
   * ended the last push) lie at or after the place the error was found. push hands back only text of
   * the current push, so a caller that cuts the failure's text where the error is (as a one-shot read
   * would) takes these back itself.
   */
  errorBack = 0;
  /** Set when the top value (or argument list) is complete. */
  done = false;
  /** An argument list has shown a first `name=` (or `name:`): it looks like real arguments. */
  named = false;
  /** The value read, once `done` (not for `extent`). */
  value: unknown;

  private readonly c: Compiled;
  private readonly top: LiteralTop;
  private readonly frames: Frame[] = [];
  private token: Token | null = null;
  private pending = "";
  private out: string[] = [];
  /** Set by a string scan that consumed some text and must wait for more before going on. */
  private stalled = false;

  // `extent` state.
  /** What the value is, once its first character was read. */
  kind: ExtentKind | undefined;
  /**
   * Of an object value: where each string directly inside it (its keys, and its values that are
   * strings) starts and ends, as pairs of offsets from the value's first character. A long string
   * argument can then be decoded on its own, in pieces (long-member.ts).
   */
  readonly members: number[] = [];
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The quote character of the open string (extent). */
  private quoteChar = 0;
  private stop: RegExp | undefined;
  /** Characters read so far (extent). */
  private read = 0;
  private memberStart = 0;

  private readonly retypeArgument: LiteralReaderOptions["retypeArgument"];

  constructor(dialect: LiteralDialect | LiteralDialectName, top: LiteralTop, options: LiteralReaderOptions = {}) {
    this.c = compile(literalDialect(dialect));
    this.top = top;
    this.retypeArgument = options.retypeArgument;
    if (top === "extent") {
      for (const q of this.c.d.strings) {
        if (q.quote.length !== 1 || q.escapes === "none") throw new Error(`an extent reader needs single-character quotes with escapes (dialect ${this.c.d.name})`);
      }
    } else if (top === "args") {
      if (this.c.d.args === undefined) throw new Error(`dialect ${this.c.d.name} has no argument lists`);
      this.frames.push(newFrame("args", "key"));
      this.out.push("{");
    } else {
      this.frames.push(newFrame("root", "value"));
    }
  }

  /** The dialect's own record. */
  get dialect(): LiteralDialect {
    return this.c.d;
  }

  /** True when `ch` can begin a value of the dialect. */
  startsValue(ch: string): boolean {
    return this.c.valueStart.has(ch);
  }

  /**
   * Consumes the value's characters from `text[from]` on. Returns the index just after the last
   * character consumed: where the value (or argument list) ended when `done`, where an error was found,
   * else `text.length` (characters of lookahead are held inside until the next call).
   */
  feed(text: string, from: number): number {
    if (this.top === "extent") {
      const end = this.scanExtent(text, from);
      this.read += end - from;
      return end;
    }
    const part = from === 0 ? text : text.slice(from);
    return text.length - this.push(part).length;
  }

  /** The JSON text written since the last call (not for `extent`). */
  take(): string {
    if (this.out.length === 0) return "";
    const s = this.out.join("");
    this.out = [];
    return s;
  }

  /**
   * Reads `text`. Returns the text after the end of the top value (for the tops that end by
   * themselves: `bracketed`, `args`, `extent`) or from where an error was found; "" when everything
   * was consumed or held.
   */
  push(text: string): string {
    if (this.top === "extent") return text.slice(this.feed(text, 0));
    if (this.done || this.error !== undefined) return text;
    const held = this.pending.length;
    const s = this.pending + text;
    this.pending = "";
    const i = this.run(s, false);
    if (this.token?.kind === "string") this.flushText(this.token);
    if (this.done) return s.slice(i);
    // After an error: the text from where it was found (never text of an earlier push: see errorBack).
    if (this.error !== undefined) {
      this.errorBack = Math.max(0, held - i);
      return s.slice(Math.max(i, held));
    }
    this.pending = s.slice(i);
    return "";
  }

  /**
   * The streaming fast path (pythonic.ts pushPlain): `text` is the next part of a string value being
   * read, with no quote in it and only one-character escapes (a backslash that ends it, or that the last
   * push ended with, is held for the next push exactly as push holds it). Then it has exactly the effect
   * push would have, and the JSON text it writes is returned (what take would give); otherwise nothing
   * is read and the answer is undefined.
   */
  pushPlainString(text: string): string | undefined {
    const tok = this.token;
    if (tok === null || tok.kind !== "string" || tok.closed || tok.isKey || tok.raw || tok.retype !== undefined) return undefined;
    if (tok.quote.quote.length !== 1 || tok.buf !== "" || this.out.length > 0 || this.done || this.error !== undefined) return undefined;
    if (this.pending !== "" && this.pending !== "\\") return undefined;
    const s = this.pending === "" ? text : this.pending + text;
    const q = tok.quote.quote.charCodeAt(0);
    const escapes = tok.quote.escapes === "json" ? JSON_ESCAPES : SIMPLE_ESCAPES;
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
    this.pending = end === s.length ? "" : "\\";
    if (decoded === "") return "";
    tok.parts.append(decoded);
    return tok.writer.write(decoded);
  }

  /**
   * The input ended. A top-level `value` (and an `extent` scalar) completes there; anything else
   * still open is an error (`extent`: is left not done). Returns whether the reading is complete.
   */
  finish(): boolean {
    if (this.top === "extent") {
      if (this.kind === "scalar") this.done = true;
      return this.done;
    }
    this.finishBuild();
    return this.done && this.error === undefined;
  }

  // ---- extent ---------------------------------------------------------------------------------

  /**
   * Inside a string: where it opened (its quote), as an offset from the value's first character;
   * undefined outside strings.
   */
  get openString(): number | undefined {
    if (!this.inString || this.done) return undefined;
    return this.kind === "string" ? 0 : this.memberStart;
  }

  /**
   * Inside a string, reads all of `text` if it stays inside the string (it holds no unescaped quote;
   * with `line`, no raw newline either), exactly as feed would; otherwise reads nothing and returns
   * false. The streaming fast path.
   */
  feedInString(text: string, line = false): boolean {
    if (!this.inString || this.done) return false;
    let escape = this.escaped;
    const quote = this.quoteChar;
    if (text.length <= SHORT) {
      // A streaming push: one pass over its few characters, no search calls.
      for (let k = 0; k < text.length; k++) {
        const c = text.charCodeAt(k);
        if (escape) escape = false;
        else if (c === BACKSLASH) escape = true;
        else if (c === quote) return false;
        // A raw newline breaks the string even after a backslash (see open-string.ts).
        if (line && c === NEWLINE) return false;
      }
      this.escaped = escape;
      this.read += text.length;
      return true;
    }
    if (line && text.includes("\n")) return false;
    let i = 0;
    while (i < text.length) {
      if (escape) {
        escape = false;
        i++;
        continue;
      }
      const stop = this.stringStop(text, i);
      if (stop < 0) break;
      if (text.charCodeAt(stop) === quote) return false;
      escape = true;
      i = stop + 1;
    }
    this.escaped = escape;
    this.read += text.length;
    return true;
  }

  /** The index of the open string's next quote or backslash at or after `from`, or -1. */
  private stringStop(text: string, from: number): number {
    if (text.length - from <= SHORT) {
      const quote = this.quoteChar;
      for (let i = from; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === quote || c === BACKSLASH) return i;
      }
      return -1;
    }
    const stop = this.stop!;
    stop.lastIndex = from;
    const m = stop.exec(text);
    return m === null ? -1 : m.index;
  }

  private openExtentString(ch: string): void {
    this.inString = true;
    this.quoteChar = ch.charCodeAt(0);
    this.stop = this.c.stops.get(ch);
  }

  private scanExtent(text: string, from: number): number {
    let i = from;
    if (this.kind === undefined && i < text.length) {
      const ch = text[i]!;
      const quoted = this.c.quotes.has(ch);
      this.kind = ch === "{" ? "object" : ch === "[" || (ch === "(" && this.c.d.tuples) ? "array" : quoted ? "string" : "scalar";
      if (quoted) {
        this.openExtentString(ch);
        i++;
      }
    }
    const words = this.c.d.wordChars;
    while (i < text.length && !this.done) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i++;
          continue;
        }
        const stop = this.stringStop(text, i);
        if (stop < 0) return text.length;
        i = stop + 1;
        if (text.charCodeAt(stop) === BACKSLASH) this.escaped = true;
        else {
          this.inString = false;
          if (this.kind === "string") this.done = true;
          else if (this.depth === 1 && this.kind === "object") this.members.push(this.memberStart, this.read + i - from);
        }
        continue;
      }
      const ch = text[i]!;
      if (this.kind === "scalar") {
        if (!words.test(ch)) {
          this.done = true;
          return i;
        }
        i++;
        continue;
      }
      if (this.c.quotes.has(ch)) {
        this.openExtentString(ch);
        this.memberStart = this.read + i - from;
      } else if (ch === "{" || ch === "[" || (ch === "(" && this.c.d.tuples)) this.depth++;
      else if (ch === "}" || ch === "]" || (ch === ")" && this.c.d.tuples)) {
        this.depth--;
        if (this.depth === 0) this.done = true;
      }
      i++;
    }
    return i;
  }

  // ---- values ---------------------------------------------------------------------------------

  private finishBuild(): void {
    if (this.done || this.error !== undefined) return;
    const s = this.pending;
    this.pending = "";
    const i = this.run(s, true);
    if (this.error !== undefined || this.done) return;
    if (i < s.length) return this.fail("unexpected end of input");
    const tok = this.token;
    if (tok?.kind === "word") this.finishWord(tok);
    else if (tok?.kind === "string" && tok.closed) this.closeString(tok);
    if (this.error !== undefined) return;
    const top = this.frames[this.frames.length - 1]!;
    if (this.frames.length === 1 && top.kind === "root" && top.state === "after" && this.token === null) {
      this.done = true;
    } else {
      this.fail("unexpected end of input");
    }
  }

  private fail(message: string): void {
    if (this.error === undefined) this.error = message;
  }

  /** Reads from `s`; returns the index where it stopped (end, lookahead needed, top closed, or error). */
  private run(s: string, final: boolean): number {
    let i = 0;
    const words = this.c.d.wordChars;
    while (i < s.length && this.error === undefined && !this.done) {
      const tok = this.token;
      if (tok !== null) {
        if (tok.kind === "string") {
          const j = tok.closed ? this.afterString(tok, s, i, final) : this.scanString(tok, s, i, final);
          if (j < 0) return i;
          if (this.stalled) {
            this.stalled = false;
            return j;
          }
          i = j;
          continue;
        }
        const c = s[i]!;
        if (words.test(c)) {
          let j = i + 1;
          while (j < s.length && words.test(s[j]!)) j++;
          tok.text += s.slice(i, j);
          i = j;
          continue;
        }
        // A string prefix (`r'...'`) reads as a word until its quote.
        const q = this.c.d.stringPrefixes && STRING_PREFIX.test(tok.text) ? this.singleQuote(c) : undefined;
        if (q !== undefined) {
          this.token = null;
          const j = this.startString(s, i, tok.isKey, /[rR]/.test(tok.text), final, q);
          if (j < 0) {
            this.token = tok;
            return i;
          }
          i = j;
          continue;
        }
        if (c === "(" && !tok.isKey) return this.failAt(i, `a call (${tok.text}(...)) is not a literal value`);
        this.finishWord(tok);
        continue;
      }
      const c = s[i]!;
      if (c === " " || c === "\n" || c === "\t" || c === "\r") {
        i++;
        continue;
      }
      const j = this.structural(s, i, final);
      if (j < 0) return i;
      i = j;
    }
    return i;
  }

  /** The single-character quote `c` of the dialect, if it is one. */
  private singleQuote(c: string): StringQuote | undefined {
    return this.c.quotes.get(c)?.find((q) => q.quote.length === 1);
  }

  /**
   * The quote that opens at `s[i]`: a quote, "wait" when more text is needed to tell (a token cut off),
   * "other" when `s[i]` begins a quote token but none is there, undefined when it begins no quote.
   */
  private quoteAt(s: string, i: number, final: boolean): StringQuote | "wait" | "other" | undefined {
    const candidates = this.c.quotes.get(s[i]!);
    if (candidates === undefined) return undefined;
    for (const q of candidates) {
      if (q.quote.length === 1 || s.startsWith(q.quote, i)) return q;
      if (!final && s.length - i < q.quote.length && q.quote.startsWith(s.slice(i))) return "wait";
    }
    return "other";
  }

  private failAt(i: number, message: string): number {
    this.fail(message);
    return i;
  }

  /** A character outside any token: a value or key starts, or a separator or bracket. Returns -1 to wait. */
  private structural(s: string, i: number, final: boolean): number {
    const frame = this.frames[this.frames.length - 1]!;
    const c = s[i]!;
    switch (frame.state) {
      case "after":
        if (c === ",") {
          if (frame.kind === "root") return this.failAt(i, "unexpected ','");
          frame.state = isKeyed(frame.kind) ? "key" : "value";
          return i + 1;
        }
        if (frame.kind === "args" && this.c.d.args!.commaOptional === true && !this.c.closers.has(c)) {
          // The next argument's name, right after a value (see ArgumentList.commaOptional).
          frame.state = "key";
          return i;
        }
        return this.closeOrFail(frame, c, i);
      case "sep": {
        const want = frame.kind === "args" ? this.c.d.args!.assign : ":";
        if (c !== want) return this.failAt(i, `expected '${want}' after ${JSON.stringify(frame.key)}`);
        frame.state = "value";
        if (this.frames.length === 1) this.named = true;
        return i + 1;
      }
      case "key":
        if (this.c.closers.has(c)) return this.closeOrFail(frame, c, i);
        return this.startKey(frame, s, i, final);
      case "value":
        if (this.c.closers.has(c) && frame.kind !== "root" && !isKeyed(frame.kind)) return this.closeOrFail(frame, c, i);
        return this.startValue(frame, s, i, final);
    }
  }

  private closerOf(kind: FrameKind): string {
    return kind === "list" ? "]" : kind === "tuple" ? ")" : kind === "args" ? this.c.d.args!.close : kind === "root" ? "" : "}";
  }

  private closeOrFail(frame: Frame, c: string, i: number): number {
    const expected = this.closerOf(frame.kind);
    if (c !== expected || frame.kind === "root") return this.failAt(i, `unexpected '${c}'`);
    if (frame.state === "sep" || (frame.state === "value" && isKeyed(frame.kind))) {
      return this.failAt(i, `missing value for ${JSON.stringify(frame.key)}`);
    }
    this.frames.pop();
    const isObject = isKeyed(frame.kind);
    this.out.push(isObject ? "}" : "]");
    this.completeValue(isObject ? frame.obj : frame.items);
    return i + 1;
  }

  private startKey(frame: Frame, s: string, i: number, final: boolean): number {
    const c = s[i]!;
    const identifiers = frame.kind === "args" && this.c.d.args!.names === "identifier";
    if (!identifiers) {
      const q = this.quoteAt(s, i, final);
      if (q === "wait") return -1;
      if (q === "other") return this.failAt(i, `unexpected '${c}'`);
      if (q !== undefined) return this.startString(s, i, true, false, final, q);
    }
    if (this.c.d.wordChars.test(c) && (frame.kind !== "dict" || this.c.d.dictKeys !== "string")) {
      this.token = { kind: "word", text: "", isKey: true };
      return i;
    }
    return this.failAt(i, `unexpected '${c}' where a key was expected`);
  }

  private startValue(frame: Frame, s: string, i: number, final: boolean): number {
    const c = s[i]!;
    if (this.top === "bracketed" && frame.kind === "root" && c !== "[" && c !== "{") {
      return this.failAt(i, `expected '{' or '[', found '${c}'`);
    }
    if (c === "[" || c === "{" || (c === "(" && this.c.d.tuples)) {
      if (this.frames.length >= MAX_DEPTH) return this.failAt(i, "nesting too deep");
      this.beginValue(frame);
      const kind: FrameKind = c === "[" ? "list" : c === "(" ? "tuple" : "dict";
      this.frames.push(newFrame(kind, kind === "dict" ? "key" : "value"));
      this.out.push(kind === "dict" ? "{" : "[");
      return i + 1;
    }
    const q = this.quoteAt(s, i, final);
    if (q === "wait") return -1;
    if (q === "other") return this.failAt(i, `unexpected '${c}'`);
    if (q !== undefined) return this.startString(s, i, false, false, final, q);
    if (this.c.d.wordChars.test(c)) {
      this.token = { kind: "word", text: "", isKey: false };
      return i;
    }
    return this.failAt(i, `unexpected '${c}' where a value was expected`);
  }

  /** Writes the separator before a list item (keyed containers wrote theirs with the key). */
  private beginValue(frame: Frame): void {
    if (frame.kind === "list" || frame.kind === "tuple") {
      if (frame.n > 0) this.out.push(", ");
      frame.n++;
    }
  }

  private writeKey(frame: Frame, key: string): void {
    frame.key = key;
    this.out.push((frame.n > 0 ? ", " : "") + JSON.stringify(key) + ": ");
    frame.n++;
    frame.state = "sep";
  }

  private completeValue(v: unknown): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame === undefined) {
      // The top argument list closed.
      this.value = v;
      this.done = true;
      return;
    }
    if (frame.items !== null) frame.items.push(v);
    else if (frame.obj !== null) setMember(frame.obj, frame.key, v);
    else {
      this.value = v;
      if (this.top === "bracketed") this.done = true;
    }
    frame.state = "after";
  }

  /** Opens a string with quote `q` at `s[i]`; -1 if more text is needed to tell `''` from `'''`. */
  private startString(s: string, i: number, isKey: boolean, raw: boolean, final: boolean, q: StringQuote): number {
    const quote = q.quote;
    let triple = false;
    if (this.c.d.tripleQuotes && quote.length === 1) {
      if (i + 2 >= s.length && !final && (i + 1 >= s.length || s[i + 1] === quote)) return -1;
      triple = s[i + 1] === quote && s[i + 2] === quote;
    }
    const frame = this.frames[this.frames.length - 1]!;
    const retype = !isKey && frame.kind === "args" && this.retypeArgument !== undefined ? this.retypeArgument(frame.key) : undefined;
    if (!isKey) {
      this.beginValue(frame);
      if (retype === undefined) this.out.push('"');
    }
    this.token = { kind: "string", quote: q, triple, raw: raw || q.escapes === "none", isKey, retype, closed: false, parts: new TextRope(), buf: "", writer: new JsonStringWriter() };
    return i + (triple ? 3 : quote.length);
  }

  /** Moves a string token's decoded text out: into its parts, and for a value into the JSON written. */
  private flushText(tok: StringToken): void {
    if (tok.buf === "") return;
    tok.parts.append(tok.buf);
    if (!tok.isKey && tok.retype === undefined) {
      const t = tok.writer.write(tok.buf);
      if (t !== "") this.out.push(t);
    }
    tok.buf = "";
  }

  /** Stops reading at `i` (text before it is consumed) until more text arrives. */
  private stall(i: number): number {
    this.stalled = true;
    return i;
  }

  /** Reads string content from `s[i]`; returns the next index (with `stalled` set to wait for more text). */
  private scanString(tok: StringToken, s: string, i: number, final: boolean): number {
    const quote = tok.quote.quote;
    if (tok.quote.escapes === "none") {
      // The body runs to the next quote: one native search.
      const end = s.indexOf(quote, i);
      if (end >= 0) {
        tok.buf += s.slice(i, end);
        this.closeString(tok);
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
      tok.buf += s.slice(i, s.length - keep);
      return keep > 0 ? this.stall(s.length - keep) : s.length;
    }
    // One search for whichever comes first, a quote or a backslash: searching for each separately
    // would rescan the rest of the text at every escape.
    const stop = this.c.stops.get(quote)!;
    while (i < s.length) {
      stop.lastIndex = i;
      const m = stop.exec(s);
      const j = m === null ? s.length : m.index;
      if (j > i) {
        tok.buf += s.slice(i, j);
        i = j;
        continue;
      }
      if (s[i] === "\\") {
        const n = this.escape(tok, s, i, final);
        if (n < 0) return this.stall(i);
        if (this.error !== undefined) return i;
        i = n;
        continue;
      }
      // A quote.
      if (tok.triple) {
        if (i + 3 > s.length && !final) return this.stall(i);
        if (s[i + 1] === quote && s[i + 2] === quote) {
          tok.closed = true;
          return i + 3;
        }
        tok.buf += quote;
        i++;
        continue;
      }
      tok.closed = true;
      if (!this.c.d.concatenation) this.closeString(tok);
      return i + 1;
    }
    return i;
  }

  /** Decodes the escape at `s[i]` (a backslash); returns the next index, or -1 to wait for more text. */
  private escape(tok: StringToken, s: string, i: number, final: boolean): number {
    if (i + 1 >= s.length) return final ? this.failAt(i, "unterminated string") : -1;
    const c = s[i + 1]!;
    if (tok.raw) {
      // In a raw string a backslash only keeps the next character from closing the string.
      tok.buf += s.slice(i, i + 2);
      return i + 2;
    }
    if (tok.quote.escapes === "json") {
      if (c === "u") return this.hexEscape(tok, s, i, 4, final);
      const e = JSON_ESCAPES[c];
      if (e === undefined) return this.failAt(i, `invalid escape \\${c}`);
      tok.buf += e;
      return i + 2;
    }
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      tok.buf += simple;
      return i + 2;
    }
    if (c === "\n") return i + 2;
    if (c === "\r") {
      if (i + 2 >= s.length && !final) return -1;
      return s[i + 2] === "\n" ? i + 3 : i + 2;
    }
    if (c === "x") return this.hexEscape(tok, s, i, 2, final);
    if (c === "u") return this.hexEscape(tok, s, i, 4, final);
    if (c === "U") return this.hexEscape(tok, s, i, 8, final);
    if (c >= "0" && c <= "7") {
      let j = i + 2;
      while (j < s.length && j < i + 4 && s[j]! >= "0" && s[j]! <= "7") j++;
      if (j < i + 4 && j === s.length && !final) return -1;
      tok.buf += String.fromCodePoint(parseInt(s.slice(i + 1, j), 8));
      return j;
    }
    // Python keeps unknown escapes (`\d`, `\N{...}`) as written.
    tok.buf += s.slice(i, i + 2);
    return i + 2;
  }

  private hexEscape(tok: StringToken, s: string, i: number, digits: number, final: boolean): number {
    const end = i + 2 + digits;
    if (end > s.length) return final ? this.failAt(i, "truncated escape") : -1;
    const hex = s.slice(i + 2, end);
    if (!/^[0-9a-fA-F]+$/.test(hex)) return this.failAt(i, `invalid escape \\${s[i + 1]}${hex}`);
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) return this.failAt(i, `invalid escape \\${s[i + 1]}${hex}`);
    // \uD83D\uDE00 arrives as two code units; the writer keeps the high one until its pair is written.
    tok.buf += digits === 4 ? String.fromCharCode(cp) : String.fromCodePoint(cp);
    return end;
  }

  /** After a string's quote (dialects with concatenation): another string literal continues it (`'a' 'b'`), anything else ends it. */
  private afterString(tok: StringToken, s: string, i: number, final: boolean): number {
    while (i < s.length && /[ \t\r\n]/.test(s[i]!)) i++;
    if (i >= s.length) return final ? (this.closeString(tok), i) : -1;
    const q = this.singleQuote(s[i]!);
    if (q !== undefined) {
      if (i + 2 >= s.length && !final) return -1;
      const c = q.quote;
      tok.quote = q;
      tok.triple = this.c.d.tripleQuotes && s[i + 1] === c && s[i + 2] === c;
      tok.raw = q.escapes === "none";
      tok.closed = false;
      return i + (tok.triple ? 3 : 1);
    }
    this.closeString(tok);
    return i;
  }

  private closeString(tok: StringToken): void {
    this.flushText(tok);
    this.token = null;
    const text = tok.parts.toString();
    const frame = this.frames[this.frames.length - 1]!;
    if (tok.isKey) {
      this.writeKey(frame, text);
      return;
    }
    if (tok.retype !== undefined) {
      const typed = tok.retype(text);
      this.out.push(typed === undefined ? JSON.stringify(text) : typed.json);
      this.completeValue(typed === undefined ? text : typed.value);
      return;
    }
    this.out.push(tok.writer.end() + '"');
    this.completeValue(text);
  }

  private finishWord(tok: WordToken): void {
    this.token = null;
    const frame = this.frames[this.frames.length - 1]!;
    const t = tok.text;
    if (tok.isKey) {
      if (frame.kind === "args") {
        if (this.c.d.args!.names === "identifier" && !IDENT.test(t)) return this.fail(`${JSON.stringify(t)} is not an argument name`);
        return this.writeKey(frame, t);
      }
      if (this.c.d.dictKeys === "bare") return this.writeKey(frame, t);
      // A Python dict key that is a number, True, False or None: json.dumps turns it into a string.
      const lit = this.wordValue(t);
      if (lit === undefined) return this.fail(`${JSON.stringify(t)} is not a literal key`);
      return this.writeKey(frame, lit.json);
    }
    const lit = this.wordValue(t);
    if (lit === undefined) return this.fail(`${JSON.stringify(t)} is not a literal value`);
    this.beginValue(frame);
    this.out.push(lit.json);
    this.completeValue(lit.value);
  }

  private wordValue(t: string): { json: string; value: unknown } | undefined {
    const constants = this.c.d.constants;
    if (Object.hasOwn(constants, t)) {
      const v = constants[t]!;
      return { json: String(v), value: v };
    }
    return readNumber(t, this.c.d.numbers);
  }
}

function newFrame(kind: FrameKind, state: Frame["state"]): Frame {
  const keyed = isKeyed(kind);
  return { kind, state, n: 0, items: keyed || kind === "root" ? null : [], obj: keyed ? {} : null, key: "" };
}

function isKeyed(kind: FrameKind): boolean {
  return kind === "dict" || kind === "args";
}

/** `obj[key] = v` as JSON.parse does it: `__proto__` is an own member, not the prototype. */
function setMember(obj: Record<string, unknown>, key: string, v: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value: v, writable: true, enumerable: true, configurable: true });
  else obj[key] = v;
}

/** True when `ch` can begin a value of `dialect`. */
export function startsValue(ch: string, dialect: LiteralDialect | LiteralDialectName): boolean {
  return compile(literalDialect(dialect)).valueStart.has(ch);
}

/** Reads a whole literal at once: JSON first, then Python (as Qwen3-Coder's reference does). */
export function readLiteral(text: string, dialects: readonly (LiteralDialect | LiteralDialectName)[] = ["json", "python"]): { json: string; value: unknown } | undefined {
  for (const d of dialects) {
    const r = new LiteralReader(d, "value");
    r.push(text);
    if (r.finish()) return { json: r.take(), value: r.value };
  }
  return undefined;
}
