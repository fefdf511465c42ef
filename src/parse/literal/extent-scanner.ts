/**
 * Where one literal value ends, without reading it: strings (with their escapes) and bracket depth
 * only, so that a caller holding the text (JSON arguments, kept as the model wrote them: json-calls,
 * json-args) can parse it once with JSON.parse. It also says where each string directly inside an
 * object starts and ends (`members`, for long-member.ts) and where an open string began
 * (`openString`). The values themselves are read by value-reader.ts; both share the compiled dialect
 * (dialects.ts).
 *
 * Work is linear: each character is looked at once, and long string bodies are skipped with native
 * searches. No text is held between pushes (an escape cut by a push is remembered as a flag).
 */
import { compiledDialect } from "./dialects.js";
import type { CompiledDialect, LiteralDialect, LiteralDialectName } from "./dialects.js";

export type ExtentKind = "object" | "array" | "string" | "scalar";

const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
/** Below this many characters a plain loop beats a regex search (streaming pushes are a few characters). */
const SHORT = 32;

export class ValueExtentScanner {
  /** Set when the value is complete. */
  done = false;
  /** What the value is, once its first character was read. */
  kind: ExtentKind | undefined;
  /**
   * Of an object value: where each string directly inside it (its keys, and its values that are
   * strings) starts and ends, as pairs of offsets from the value's first character. A long string
   * argument can then be decoded on its own, in pieces (long-member.ts).
   */
  readonly members: number[] = [];

  private readonly c: CompiledDialect;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The quote character of the open string. */
  private quoteChar = 0;
  private stop: RegExp | undefined;
  /** Characters read so far. */
  private read = 0;
  private memberStart = 0;

  constructor(dialect: LiteralDialect | LiteralDialectName) {
    this.c = compiledDialect(dialect);
    for (const q of this.c.d.strings) {
      if (q.quote.length !== 1 || q.escapes === "none") throw new Error(`an extent scanner needs single-character quotes with escapes (dialect ${this.c.d.name})`);
    }
  }

  /**
   * Consumes the value's characters from `text[from]` on. Returns the index just after the last
   * character consumed: where the value ended when `done`, else `text.length`.
   */
  feed(text: string, from: number): number {
    const end = this.scan(text, from);
    this.read += end - from;
    return end;
  }

  /** The input ended: a scalar completes there, anything else still open is left not done. Returns `done`. */
  finish(): boolean {
    if (this.kind === "scalar") this.done = true;
    return this.done;
  }

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

  private enterString(ch: string): void {
    this.inString = true;
    this.quoteChar = ch.charCodeAt(0);
    this.stop = this.c.stops.get(ch);
  }

  private scan(text: string, from: number): number {
    let i = from;
    if (this.kind === undefined && i < text.length) {
      const ch = text[i]!;
      const quoted = this.c.quotes.has(ch);
      this.kind = ch === "{" ? "object" : ch === "[" || (ch === "(" && this.c.d.tuples) ? "array" : quoted ? "string" : "scalar";
      if (quoted) {
        this.enterString(ch);
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
        this.enterString(ch);
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
}
