/**
 * Reads one JSON value incrementally: it tracks strings (with escapes) and bracket depth, so it knows
 * where a value ends without parsing it. Decoders use it to stream a value's bytes as they arrive and
 * to find where an object or array closes; JSON.parse checks the value once it is complete.
 * Strings are skipped with a native regex search, so long string arguments cost little per character.
 */
const STRING_STOP = /["\\]/g;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
/** Below this many characters a plain loop beats a regex search (streaming pushes are a few characters). */
const SHORT = 32;

/** The index of the next `"` or `\\` at or after `from`, or -1. */
function stringStop(text: string, from: number): number {
  if (text.length - from <= SHORT) {
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE || c === BACKSLASH) return i;
    }
    return -1;
  }
  STRING_STOP.lastIndex = from;
  const m = STRING_STOP.exec(text);
  return m === null ? -1 : m.index;
}

const SCALAR_CHAR = /[-+0-9.eEa-zA-Z]/;

export type JsonValueKind = "object" | "array" | "string" | "scalar";

export class JsonValueReader {
  kind: JsonValueKind | undefined;
  done = false;
  /**
   * Of an object value: where each string directly inside it (its keys, and its values that are
   * strings) starts and ends, as pairs of offsets from the value's first character. A long string
   * argument can then be decoded on its own, in pieces (json-value.ts).
   */
  readonly members: number[] = [];
  private depth = 0;
  private inString = false;
  private escape = false;
  /** Characters read so far. */
  private read = 0;
  private memberStart = 0;

  /**
   * Inside a string: where it opened (its quote), as an offset from the value's first character;
   * undefined outside strings.
   */
  get openString(): number | undefined {
    if (!this.inString || this.done) return undefined;
    return this.kind === "string" ? 0 : this.memberStart;
  }

  /** True when `ch` can begin a JSON value. */
  static startsValue(ch: string): boolean {
    return ch === "{" || ch === "[" || ch === '"' || ch === "-" || (ch >= "0" && ch <= "9") || ch === "t" || ch === "f" || ch === "n";
  }

  /**
   * Consumes the value's characters from `text[from]` on (the first call must start at the value's
   * first character). Returns the index just after the last character consumed: the value's end when
   * `done`, else `text.length`.
   */
  feed(text: string, from: number): number {
    const end = this.scan(text, from);
    this.read += end - from;
    return end;
  }

  private scan(text: string, from: number): number {
    let i = from;
    if (this.kind === undefined && i < text.length) {
      const ch = text[i]!;
      this.kind = ch === "{" ? "object" : ch === "[" ? "array" : ch === '"' ? "string" : "scalar";
      if (this.kind === "string") {
        this.inString = true;
        i++;
      }
    }
    while (i < text.length && !this.done) {
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
          i++;
          continue;
        }
        const stop = stringStop(text, i);
        if (stop < 0) return text.length;
        i = stop + 1;
        if (text.charCodeAt(stop) === BACKSLASH) this.escape = true;
        else {
          this.inString = false;
          if (this.kind === "string") this.done = true;
          else if (this.depth === 1 && this.kind === "object") this.members.push(this.memberStart, this.read + i - from);
        }
        continue;
      }
      const ch = text[i]!;
      if (this.kind === "scalar") {
        if (!SCALAR_CHAR.test(ch)) {
          this.done = true;
          return i;
        }
        i++;
        continue;
      }
      if (ch === '"') {
        this.inString = true;
        this.memberStart = this.read + i - from;
      } else if (ch === "{" || ch === "[") this.depth++;
      else if (ch === "}" || ch === "]") {
        this.depth--;
        if (this.depth === 0) this.done = true;
      }
      i++;
    }
    return i;
  }

  /**
   * Inside a string, reads all of `text` if it stays inside the string (it holds no unescaped quote;
   * with `line`, no raw newline either), exactly as feed would; otherwise reads nothing and returns false.
   */
  feedInString(text: string, line = false): boolean {
    if (!this.inString || this.done) return false;
    let escape = this.escape;
    if (text.length <= SHORT) {
      // A streaming push: one pass over its few characters, no search calls.
      for (let k = 0; k < text.length; k++) {
        const c = text.charCodeAt(k);
        if (escape) escape = false;
        else if (c === BACKSLASH) escape = true;
        else if (c === QUOTE) return false;
        // A raw newline breaks the string even after a backslash (see open-string.ts).
        if (line && c === NEWLINE) return false;
      }
      this.escape = escape;
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
      const stop = stringStop(text, i);
      if (stop < 0) break;
      if (text.charCodeAt(stop) === QUOTE) return false;
      escape = true;
      i = stop + 1;
    }
    this.escape = escape;
    this.read += text.length;
    return true;
  }

  /** At the end of the input: a scalar ends there; anything else still open is truncated. */
  finish(): boolean {
    if (this.kind === "scalar") this.done = true;
    return this.done;
  }
}
