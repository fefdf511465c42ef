/**
 * A streaming reader of literal values that writes the equivalent JSON text as it reads.
 *
 * Three dialects share one push-down machine because they differ only in their tokens:
 * - `python`: what `ast.literal_eval` accepts (single, double and triple quotes, `r`/`u` prefixes,
 *   Python escapes, implicit concatenation `'a' 'b'`, `True`/`False`/`None`, tuples, numbers such as
 *   `1_000`, `0x1F`, `.5`), plus JSON's `true`/`false`/`null` because pythonic models write those too;
 * - `json`: JSON (double quotes, JSON escapes including `\/`, `true`/`false`/`null`);
 * - `gemma`: Gemma 4's argument syntax: strings are raw text between `<|"|>` tokens, dict keys are bare
 *   (`{city:<|"|>London<|"|>,n:3}`), `None`/`null`, `true`/`false`.
 *
 * The JSON written uses Python `json.dumps` default separators (`", "` and `": "`) and keeps non-ASCII
 * characters as they are (ensure_ascii off). A number keeps the model's spelling when that is valid JSON
 * (`3.0` stays `3.0`, a 20-digit integer keeps its digits); other Python spellings are normalised.
 * String contents are written as they arrive, so a long string streams.
 *
 * The reader reads one of: a single value (`top: "value"`), the keyword arguments of a call after its
 * `(` up to the matching `)` (`"kwargs"`), or Gemma's argument object after its `{` up to the matching
 * `}` (`"gemma-args"`). The last two write `{...}` for the arguments object.
 *
 * Work is linear: each character is looked at once, except a few characters of lookahead (a quote that
 * might open a triple-quoted string, an escape sequence, a `<|"|>` token) that are kept until the next
 * push when a push ends in the middle of them.
 */

export type LiteralDialect = "json" | "python" | "gemma";
/**
 * `value`: one value, complete at the end of the input (finish()); `bracketed`: one value that starts
 * with a bracket and is complete at its closing bracket; `kwargs` / `gemma-args`: a call's arguments
 * after the opening `(` / `{`, complete at the closing one.
 */
export type LiteralTop = "value" | "bracketed" | "kwargs" | "gemma-args";

type FrameKind = "root" | "list" | "tuple" | "dict" | "kwargs" | "gemma-args";

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
  /** The closing delimiter: `'`, `"`, or `<|"|>` for Gemma. */
  quote: string;
  triple: boolean;
  raw: boolean;
  /** Keys are collected, values are written as they arrive. */
  isKey: boolean;
  /** The quote has been seen; a Python string waits to see whether another literal follows (`'a' 'b'`). */
  closed: boolean;
  parts: string[];
  /** Decoded text not yet moved to `parts` (escapes decode a few characters at a time). */
  buf: string;
  writer: JsonStringWriter;
}

interface AtomToken {
  kind: "atom";
  text: string;
  isKey: boolean;
}

type Token = StringToken | AtomToken;

const GEMMA_QUOTE = '<|"|>';
const STOP_SINGLE = /['\\]/g;
const STOP_DOUBLE = /["\\]/g;
const MAX_DEPTH = 256;
const ATOM_CHAR = /[A-Za-z0-9_.+\-$]/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const PY_INT_RADIX = /^([+-]?)0([xXoObB])_?([0-9a-fA-F](?:_?[0-9a-fA-F])*)$/;
const PY_DECIMAL = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;
const STRING_PREFIX = /^(?:r|u|R|U)$/;
const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\", "'": "'", '"': '"', a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v",
};
const JSON_ESCAPES: Record<string, string> = {
  "\\": "\\", '"': '"', "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t",
};

/** `"..."` body of a JSON string for `s` (JSON.stringify matches Python's json.dumps(ensure_ascii=False)). */
export function jsonStringBody(s: string): string {
  const q = JSON.stringify(s);
  return q.slice(1, q.length - 1);
}

/** Characters JSON.stringify escapes: quote, backslash, controls, and (lone) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Whether `s` ends with the high half of a surrogate pair (its low half is still to come). */
function endsHigh(s: string): boolean {
  const last = s.charCodeAt(s.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/** Up to this length, escapeShort's loop beats the regex test of the general path. */
const SHORT_TEXT = 32;

/** JSON.stringify's escapes of the control characters (`\n`, `\u001f`, ...), by character code. */
const CONTROL_ESCAPES: readonly string[] = Array.from({ length: 0x20 }, (_, c) => JSON.stringify(String.fromCharCode(c)).slice(1, -1));

/**
 * jsonStringBody for a short string (a streaming push): `s` itself when nothing in it needs escaping,
 * else the same escapes JSON.stringify writes, made by a plain loop (a push of code has a quote or a
 * newline in most pushes, and JSON.stringify of a few characters costs several times the loop). A
 * surrogate (paired or not) takes JSON.stringify's path, which knows the pairs.
 */
function escapeShort(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let e: string;
    if (c < 0x20) e = CONTROL_ESCAPES[c]!;
    else if (c === 0x22) e = '\\"';
    else if (c === 0x5c) e = "\\\\";
    else if (c >= 0xd800 && c <= 0xdfff) return jsonStringBody(s);
    else continue;
    out += from === i ? e : s.slice(from, i) + e;
    from = i + 1;
  }
  return out === "" ? s : from === s.length ? out : out + s.slice(from);
}

/**
 * Escapes a string that arrives in pieces. A piece may end with the high half of a surrogate pair
 * (a stream cut between UTF-16 code units); JSON.stringify would escape it alone as `\ud83d`, so it is
 * held until its pair arrives.
 */
export class JsonStringWriter {
  private high = "";

  write(text: string): string {
    // A streaming push is a few characters: escape it by hand, without a regex test and the two
    // strings JSON.stringify + slice make. Long text (one-shot) takes the native path below.
    if (this.high === "" && text.length <= SHORT_TEXT && !endsHigh(text)) return escapeShort(text);
    // Most text needs no escaping: return it as it is (no copy).
    if (this.high === "" && !NEEDS_ESCAPE.test(text)) return text;
    let t = this.high + text;
    this.high = "";
    const last = t.charCodeAt(t.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.high = t[t.length - 1]!;
      t = t.slice(0, -1);
    }
    return t === "" ? "" : jsonStringBody(t);
  }

  /** Whatever is held (a lone high surrogate stays escaped, as JSON.stringify writes it). */
  end(): string {
    const h = this.high;
    this.high = "";
    return h === "" ? "" : jsonStringBody(h);
  }
}

/**
 * A number literal as JSON text and value, or undefined if `text` is not a number. Python spellings that
 * JSON lacks (`+1`, `1_000`, `.5`, `5.`, `0x1f`, `007` is rejected as Python does) are normalised.
 */
export function readNumber(text: string, dialect: LiteralDialect): { json: string; value: number } | undefined {
  if (JSON_NUMBER.test(text)) return { json: text, value: Number(text) };
  if (dialect === "json") return undefined;
  const radix = PY_INT_RADIX.exec(text);
  if (radix) {
    const prefix = radix[2]!.toLowerCase();
    const digits = radix[3]!.replace(/_/g, "");
    if ((prefix === "o" && /[^0-7]/.test(digits)) || (prefix === "b" && /[^01]/.test(digits))) return undefined;
    if (prefix !== "x" && /[a-fA-F]/.test(digits)) return undefined;
    const big = BigInt(`0${prefix}${digits}`) * (radix[1] === "-" ? -1n : 1n);
    return { json: big.toString(), value: Number(big) };
  }
  if (!PY_DECIMAL.test(text)) return undefined;
  let t = text.replace(/_/g, "").replace(/^\+/, "");
  const neg = t.startsWith("-");
  if (neg) t = t.slice(1);
  const isFloat = /[.eE]/.test(t);
  // Python rejects leading zeros on integers (`007`); floats may have them (`007.5`).
  if (!isFloat && /^0\d/.test(t)) return undefined;
  t = t.replace(/^0+(?=\d)/, "").replace(/^\./, "0.").replace(/\.(?=[eE]|$)/, ".0");
  const json = (neg ? "-" : "") + t;
  return JSON_NUMBER.test(json) ? { json, value: Number(json) } : undefined;
}

export class LiteralReader {
  /** Set when the reader met something that is not a literal; nothing more is read after it. */
  error: string | undefined;
  /** Set when the top value (or argument list) is complete. */
  done = false;
  /** An argument list has shown a first `name=` (or `name:`): it looks like real arguments. */
  named = false;
  /** The value read, once `done`. */
  value: unknown;

  private readonly dialect: LiteralDialect;
  private readonly frames: Frame[] = [];
  private token: Token | null = null;
  private pending = "";
  private out: string[] = [];
  /** Set by a string scan that consumed some text and must wait for more before going on. */
  private stalled = false;

  /** The top value ends the reading when it completes (a bracketed value: at its closing bracket). */
  private readonly stopAtValue: boolean;

  constructor(dialect: LiteralDialect, top: LiteralTop) {
    this.dialect = dialect;
    this.stopAtValue = top === "bracketed";
    if (top === "value" || top === "bracketed") {
      this.frames.push(newFrame("root", "value"));
    } else {
      this.frames.push(newFrame(top === "kwargs" ? "kwargs" : "gemma-args", "key"));
      this.out.push("{");
    }
  }

  /** The JSON text written since the last call. */
  take(): string {
    if (this.out.length === 0) return "";
    const s = this.out.join("");
    this.out = [];
    return s;
  }

  /**
   * Reads `text`. Returns the text after the end of the top value (only for the `kwargs` and
   * `gemma-args` tops, whose end is the closing bracket) or from where an error was found; "" when
   * everything was consumed or held.
   */
  push(text: string): string {
    if (this.done || this.error !== undefined) return text;
    const held = this.pending.length;
    const s = this.pending + text;
    this.pending = "";
    const i = this.run(s, false);
    if (this.token?.kind === "string") this.flushText(this.token);
    if (this.done) return s.slice(i);
    // After an error: the text from where it was found (never text of an earlier push).
    if (this.error !== undefined) return s.slice(Math.max(i, held));
    this.pending = s.slice(i);
    return "";
  }

  /**
   * The streaming fast path: `text` is the next part of a string value being read (no closing quote in
   * it, no escape but the one-character ones; a backslash that ends it, or that the last push ended
   * with, is kept for the next push as push keeps it). Then it has exactly the effect push would have,
   * and the JSON text it writes is returned (what take would give); otherwise nothing is read and the
   * answer is undefined.
   */
  pushPlainString(text: string): string | undefined {
    const tok = this.token;
    if (tok === null || tok.kind !== "string" || tok.closed || tok.isKey || tok.raw || tok.quote === GEMMA_QUOTE) return undefined;
    if ((this.pending !== "" && this.pending !== "\\") || this.out.length > 0 || tok.buf !== "" || this.done || this.error !== undefined) return undefined;
    const s = this.pending === "" ? text : this.pending + text;
    const q = tok.quote.charCodeAt(0);
    const escapes = this.dialect === "json" ? JSON_ESCAPES : SIMPLE_ESCAPES;
    let decoded = "";
    let from = 0;
    let end = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === q) return undefined;
      if (c !== 0x5c) continue;
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
    tok.parts.push(decoded);
    return tok.writer.write(decoded);
  }

  /** The input ended: completes a top-level value (`top: "value"`); anything else unfinished is an error. */
  finish(): void {
    if (this.done || this.error !== undefined) return;
    const s = this.pending;
    this.pending = "";
    const i = this.run(s, true);
    if (this.error !== undefined || this.done) return;
    if (i < s.length) return this.fail("unexpected end of input");
    const tok = this.token;
    if (tok?.kind === "atom") this.finishAtom(tok);
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
        if (ATOM_CHAR.test(c)) {
          let j = i + 1;
          while (j < s.length && ATOM_CHAR.test(s[j]!)) j++;
          tok.text += s.slice(i, j);
          i = j;
          continue;
        }
        // A Python string prefix (`r'...'`) reads as an atom until its quote.
        if ((c === "'" || c === '"') && this.dialect === "python" && STRING_PREFIX.test(tok.text)) {
          this.token = null;
          const j = this.startString(s, i, tok.isKey, /[rR]/.test(tok.text), final);
          if (j < 0) {
            this.token = tok;
            return i;
          }
          i = j;
          continue;
        }
        if (c === "(" && !tok.isKey) return this.failAt(i, `a call (${tok.text}(...)) is not a literal value`);
        this.finishAtom(tok);
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
        return this.closeOrFail(frame, c, i);
      case "sep": {
        const want = frame.kind === "kwargs" ? "=" : ":";
        if (c !== want) return this.failAt(i, `expected '${want}' after ${JSON.stringify(frame.key)}`);
        frame.state = "value";
        if (this.frames.length === 1) this.named = true;
        return i + 1;
      }
      case "key":
        if (isCloser(c)) return this.closeOrFail(frame, c, i);
        return this.startKey(frame, s, i, final);
      case "value":
        if (isCloser(c) && frame.kind !== "root" && !isKeyed(frame.kind)) return this.closeOrFail(frame, c, i);
        return this.startValue(frame, s, i, final);
    }
  }

  private closeOrFail(frame: Frame, c: string, i: number): number {
    const expected = closerOf(frame.kind);
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
    if (frame.kind !== "kwargs" && (c === '"' || (c === "'" && this.dialect === "python"))) {
      return this.startString(s, i, true, false, final);
    }
    if (c === "<" && this.dialect === "gemma") return this.startGemmaString(s, i, true, final);
    if (ATOM_CHAR.test(c) && (frame.kind !== "dict" || this.dialect !== "json")) {
      this.token = { kind: "atom", text: "", isKey: true };
      return i;
    }
    return this.failAt(i, `unexpected '${c}' where a key was expected`);
  }

  private startValue(frame: Frame, s: string, i: number, final: boolean): number {
    const c = s[i]!;
    if (this.stopAtValue && frame.kind === "root" && c !== "[" && c !== "{") {
      return this.failAt(i, `expected '{' or '[', found '${c}'`);
    }
    if (c === "[" || c === "{" || (c === "(" && this.dialect === "python")) {
      if (this.frames.length >= MAX_DEPTH) return this.failAt(i, "nesting too deep");
      this.beginValue(frame);
      const kind: FrameKind = c === "[" ? "list" : c === "(" ? "tuple" : "dict";
      this.frames.push(newFrame(kind, kind === "dict" ? "key" : "value"));
      this.out.push(kind === "dict" ? "{" : "[");
      return i + 1;
    }
    if (c === '"' || (c === "'" && this.dialect === "python")) return this.startString(s, i, false, false, final);
    if (c === "<" && this.dialect === "gemma") return this.startGemmaString(s, i, false, final);
    if (ATOM_CHAR.test(c)) {
      this.token = { kind: "atom", text: "", isKey: false };
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
    else if (frame.obj !== null) frame.obj[frame.key] = v;
    else {
      this.value = v;
      if (this.stopAtValue) this.done = true;
    }
    frame.state = "after";
  }

  /** Opens a quoted string at `s[i]`; -1 if more text is needed to tell `''` from `'''`. */
  private startString(s: string, i: number, isKey: boolean, raw: boolean, final: boolean): number {
    const q = s[i]!;
    let triple = false;
    if (this.dialect === "python") {
      if (i + 2 >= s.length && !final && (i + 1 >= s.length || s[i + 1] === q)) return -1;
      triple = s[i + 1] === q && s[i + 2] === q;
    }
    const frame = this.frames[this.frames.length - 1]!;
    if (!isKey) {
      this.beginValue(frame);
      this.out.push('"');
    }
    this.token = { kind: "string", quote: q, triple, raw, isKey, closed: false, parts: [], buf: "", writer: new JsonStringWriter() };
    return i + (triple ? 3 : 1);
  }

  private startGemmaString(s: string, i: number, isKey: boolean, final: boolean): number {
    if (s.length - i < GEMMA_QUOTE.length && GEMMA_QUOTE.startsWith(s.slice(i)) && !final) return -1;
    if (!s.startsWith(GEMMA_QUOTE, i)) return this.failAt(i, "unexpected '<'");
    const frame = this.frames[this.frames.length - 1]!;
    if (!isKey) {
      this.beginValue(frame);
      this.out.push('"');
    }
    this.token = { kind: "string", quote: GEMMA_QUOTE, triple: false, raw: true, isKey, closed: false, parts: [], buf: "", writer: new JsonStringWriter() };
    return i + GEMMA_QUOTE.length;
  }

  /** Adds decoded text to a string token (values are written at once, keys collected). */
  private addText(tok: StringToken, text: string): void {
    tok.buf += text;
  }

  /** Moves a string token's decoded text out: into its parts, and for a value into the JSON written. */
  private flushText(tok: StringToken): void {
    if (tok.buf === "") return;
    tok.parts.push(tok.buf);
    if (!tok.isKey) {
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
    if (tok.quote === GEMMA_QUOTE) {
      const end = s.indexOf(GEMMA_QUOTE, i);
      if (end >= 0) {
        this.addText(tok, s.slice(i, end));
        this.closeString(tok);
        return end + GEMMA_QUOTE.length;
      }
      // Keep a tail that could be the start of the closing token.
      let keep = 0;
      if (!final) {
        for (let k = Math.min(GEMMA_QUOTE.length - 1, s.length - i); k > 0; k--) {
          if (GEMMA_QUOTE.startsWith(s.slice(s.length - k))) {
            keep = k;
            break;
          }
        }
      }
      this.addText(tok, s.slice(i, s.length - keep));
      return keep > 0 ? this.stall(s.length - keep) : s.length;
    }
    const q = tok.quote;
    // One search for whichever comes first, a quote or a backslash: searching for each separately
    // would rescan the rest of the text at every escape.
    const stop = q === "'" ? STOP_SINGLE : STOP_DOUBLE;
    while (i < s.length) {
      stop.lastIndex = i;
      const m = stop.exec(s);
      const j = m === null ? s.length : m.index;
      if (j > i) {
        this.addText(tok, s.slice(i, j));
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
        if (s[i + 1] === q && s[i + 2] === q) {
          tok.closed = true;
          return i + 3;
        }
        this.addText(tok, q);
        i++;
        continue;
      }
      tok.closed = true;
      if (this.dialect !== "python") this.closeString(tok);
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
      this.addText(tok, s.slice(i, i + 2));
      return i + 2;
    }
    if (this.dialect === "json") {
      if (c === "u") return this.hexEscape(tok, s, i, 4, final);
      const e = JSON_ESCAPES[c];
      if (e === undefined) return this.failAt(i, `invalid escape \\${c}`);
      this.addText(tok, e);
      return i + 2;
    }
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      this.addText(tok, simple);
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
      this.addText(tok, String.fromCodePoint(parseInt(s.slice(i + 1, j), 8)));
      return j;
    }
    // Python keeps unknown escapes (`\d`, `\N{...}`) as written.
    this.addText(tok, s.slice(i, i + 2));
    return i + 2;
  }

  private hexEscape(tok: StringToken, s: string, i: number, digits: number, final: boolean): number {
    const end = i + 2 + digits;
    if (end > s.length) return final ? this.failAt(i, "truncated escape") : -1;
    const hex = s.slice(i + 2, end);
    if (!/^[0-9a-fA-F]+$/.test(hex)) return this.failAt(i, `invalid escape \\${s[i + 1]}${hex}`);
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) return this.failAt(i, `invalid escape \\${s[i + 1]}${hex}`);
    // \uD83D\uDE00 arrives as two code units; addText keeps the high one until its pair is written.
    this.addText(tok, digits === 4 ? String.fromCharCode(cp) : String.fromCodePoint(cp));
    return end;
  }

  /** After a Python string's quote: another string literal continues it (`'a' 'b'`), anything else ends it. */
  private afterString(tok: StringToken, s: string, i: number, final: boolean): number {
    while (i < s.length && /[ \t\r\n]/.test(s[i]!)) i++;
    if (i >= s.length) return final ? (this.closeString(tok), i) : -1;
    const c = s[i]!;
    if (c === "'" || c === '"') {
      if (i + 2 >= s.length && !final) return -1;
      tok.quote = c;
      tok.triple = s[i + 1] === c && s[i + 2] === c;
      tok.raw = false;
      tok.closed = false;
      return i + (tok.triple ? 3 : 1);
    }
    this.closeString(tok);
    return i;
  }

  private closeString(tok: StringToken): void {
    this.flushText(tok);
    this.token = null;
    const text = tok.parts.join("");
    const frame = this.frames[this.frames.length - 1]!;
    if (tok.isKey) {
      this.writeKey(frame, text);
      return;
    }
    this.out.push(tok.writer.end() + '"');
    this.completeValue(text);
  }

  private finishAtom(tok: AtomToken): void {
    this.token = null;
    const frame = this.frames[this.frames.length - 1]!;
    const t = tok.text;
    if (tok.isKey) {
      if (frame.kind === "kwargs") {
        if (!IDENT.test(t)) return this.fail(`${JSON.stringify(t)} is not an argument name`);
        return this.writeKey(frame, t);
      }
      if (frame.kind === "gemma-args" || this.dialect === "gemma") return this.writeKey(frame, t);
      // A Python dict key that is a number, True, False or None: json.dumps turns it into a string.
      const lit = this.atomValue(t);
      if (lit === undefined) return this.fail(`${JSON.stringify(t)} is not a literal key`);
      return this.writeKey(frame, lit.json);
    }
    const lit = this.atomValue(t);
    if (lit === undefined) return this.fail(`${JSON.stringify(t)} is not a literal value`);
    this.beginValue(frame);
    this.out.push(lit.json);
    this.completeValue(lit.value);
  }

  private atomValue(t: string): { json: string; value: unknown } | undefined {
    if (t === "true" || (t === "True" && this.dialect !== "json")) return { json: "true", value: true };
    if (t === "false" || (t === "False" && this.dialect !== "json")) return { json: "false", value: false };
    if (t === "null" || (t === "None" && this.dialect !== "json")) return { json: "null", value: null };
    return readNumber(t, this.dialect);
  }
}

function newFrame(kind: FrameKind, state: Frame["state"]): Frame {
  const keyed = isKeyed(kind);
  return { kind, state, n: 0, items: keyed || kind === "root" ? null : [], obj: keyed ? {} : null, key: "" };
}

function isKeyed(kind: FrameKind): boolean {
  return kind === "dict" || kind === "kwargs" || kind === "gemma-args";
}

function isCloser(c: string): boolean {
  return c === "]" || c === "}" || c === ")";
}

function closerOf(kind: FrameKind): string {
  return kind === "list" ? "]" : kind === "tuple" || kind === "kwargs" ? ")" : kind === "root" ? "" : "}";
}

/** Reads a whole literal at once: JSON first, then Python (as Qwen3-Coder's reference does). */
export function readLiteral(text: string, dialects: readonly LiteralDialect[] = ["json", "python"]): { json: string; value: unknown } | undefined {
  for (const d of dialects) {
    const r = new LiteralReader(d, "value");
    r.push(text);
    r.finish();
    if (r.done && r.error === undefined) return { json: r.take(), value: r.value };
  }
  return undefined;
}
