/**
 * The streaming literal value reader. A dialect record (dialects.ts) says how strings are quoted and
 * escaped, which bare words are values, how numbers are spelled, what a dict key may be and how a
 * call's argument list is written; the reader itself knows no dialect by name. (Where a value ends,
 * without reading it, is extent-scanner.ts's job.)
 *
 * What is read (`LiteralTop`):
 * - `value`: one value, complete at the end of the input (finish());
 * - `bracketed`: one value that starts with a bracket, complete at its closing bracket;
 * - `args`: a call's argument list after its opening bracket (`a=1, b='x')` in Python,
 *   `a:1,b:<escape>x<escape>}` in FunctionGemma), complete at the closing bracket, written as a JSON object.
 *
 * The reader writes the equivalent JSON text as it reads (Python `json.dumps` separators `", "` and
 * `": "`, non-ASCII characters kept), so a long string argument streams, and holds the typed value
 * once done. A number keeps the model's spelling when that is valid JSON (`3.0` stays `3.0`); other
 * spellings are normalised. Quoted strings are read by quoted-string.ts.
 *
 * Work is linear: each character is looked at once, except a few characters of lookahead (a quote that
 * might open a triple-quoted string, an escape sequence, a multi-character quote token) kept until the
 * next push when a push ends in the middle of them. Long string bodies are skipped with native searches.
 */
import { compiledDialect } from "./dialects.js";
import type { CompiledDialect, LiteralDialect, LiteralDialectName, StringQuote } from "./dialects.js";
import { readNumber } from "./json-text.js";
import { QuotedString, singleQuote } from "./quoted-string.js";
import type { StringRetype } from "./quoted-string.js";

export type { StringRetype } from "./quoted-string.js";
export type LiteralTop = "value" | "bracketed" | "args";

export interface LiteralValueReaderOptions {
  /**
   * For `args`: the retyping of a quoted value of argument `name`, when the caller types quoted values
   * (a dialect with `quotedValuesTyped`, by the tool's schema). Such a value is held until its string
   * closes instead of streamed.
   */
  retypeArgument?: (name: string) => StringRetype | undefined;
}

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

interface WordToken {
  kind: "word";
  text: string;
  isKey: boolean;
}

type Token = QuotedString | WordToken;

const MAX_DEPTH = 256;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const STRING_PREFIX = /^(?:r|u|R|U)$/;

export class LiteralValueReader {
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
  /** The value read, once `done`. */
  value: unknown;

  private readonly c: CompiledDialect;
  private readonly top: LiteralTop;
  private readonly frames: Frame[] = [];
  private token: Token | null = null;
  private pending = "";
  private out: string[] = [];
  private readonly retypeArgument: LiteralValueReaderOptions["retypeArgument"];

  constructor(dialect: LiteralDialect | LiteralDialectName, top: LiteralTop, options: LiteralValueReaderOptions = {}) {
    this.c = compiledDialect(dialect);
    this.top = top;
    this.retypeArgument = options.retypeArgument;
    if (top === "args") {
      if (this.c.d.args === undefined) throw new Error(`dialect ${this.c.d.name} has no argument lists`);
      this.frames.push(newFrame("args", "key"));
      this.out.push("{");
    } else {
      this.frames.push(newFrame("root", "value"));
    }
  }

  /**
   * Consumes the value's characters from `text[from]` on. Returns the index just after the last
   * character consumed: where the value (or argument list) ended when `done`, where an error was found,
   * else `text.length` (characters of lookahead are held inside until the next call).
   */
  feed(text: string, from: number): number {
    const part = from === 0 ? text : text.slice(from);
    return text.length - this.push(part).length;
  }

  /** The JSON text written since the last call. */
  take(): string {
    if (this.out.length === 0) return "";
    const s = this.out.join("");
    this.out = [];
    return s;
  }

  /**
   * Reads `text`. Returns the text after the end of the top value (for the tops that end by
   * themselves: `bracketed`, `args`) or from where an error was found; "" when everything
   * was consumed or held.
   */
  push(text: string): string {
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
    if (tok === null || tok.kind !== "string" || this.out.length > 0 || this.done || this.error !== undefined) return undefined;
    if (this.pending !== "" && this.pending !== "\\") return undefined;
    const json = tok.pushPlain(this.pending === "" ? text : this.pending + text);
    if (json !== undefined) this.pending = tok.heldBackslash ? "\\" : "";
    return json;
  }

  /**
   * The input ended. A top-level `value` completes there; anything else still open is an error.
   * Returns whether the reading is complete.
   */
  finish(): boolean {
    this.finishBuild();
    return this.done && this.error === undefined;
  }

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
          const j = tok.closed ? tok.join(s, i, final, this.c) : tok.scan(s, i, final, this.c);
          if (tok.error !== undefined) this.fail(tok.error);
          else if (tok.complete) this.closeString(tok);
          if (j < 0) return i;
          if (tok.stalled) {
            tok.stalled = false;
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
        const q = this.c.d.stringPrefixes && STRING_PREFIX.test(tok.text) ? singleQuote(this.c, c) : undefined;
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
        if (c !== want && !(frame.kind === "args" && this.c.d.args!.assignAlso?.includes(c) === true)) return this.failAt(i, `expected '${want}' after ${JSON.stringify(frame.key)}`);
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
    // Python refuses `f(a=1, a=2)` (which value is meant is a guess); a dict may repeat a key (the last wins).
    if (frame.kind === "args" && Object.hasOwn(frame.obj!, key)) return this.fail(`keyword argument ${JSON.stringify(key)} repeated`);
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
    this.token = new QuotedString(q, triple, raw || q.escapes === "none", isKey, retype);
    return i + (triple ? 3 : quote.length);
  }

  /** Moves a string token's decoded text out: into its parts, and for a value into the JSON written. */
  private flushText(tok: QuotedString): void {
    if (tok.buf === "") return;
    tok.parts.append(tok.buf);
    if (!tok.isKey && tok.retype === undefined) {
      const t = tok.writer.write(tok.buf);
      if (t !== "") this.out.push(t);
    }
    tok.buf = "";
  }

  private closeString(tok: QuotedString): void {
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

/** Reads a whole literal at once: JSON first, then Python (as Qwen3-Coder's reference does). */
export function readLiteral(text: string, dialects: readonly (LiteralDialect | LiteralDialectName)[] = ["json", "python"]): { json: string; value: unknown } | undefined {
  for (const d of dialects) {
    const r = new LiteralValueReader(d, "value");
    r.push(text);
    if (r.finish()) return { json: r.take(), value: r.value };
  }
  return undefined;
}
