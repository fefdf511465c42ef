/**
 * A JSON reader that keeps what JSON.parse throws away and Python keeps: a number written as a float
 * (`1.0`, `2e3`) stays a float. Integral floats become PyFloat so a template prints `1.0` the way
 * transformers does; non-integral numbers are floats in JS already. Everything else matches JSON.parse
 * (same values, same errors for bad input), so it can be used for every JSON file chatwire reads.
 *
 * An object with integer-like keys ("1", which a JS object enumerates first) keeps the text's key order,
 * as Python's dict does (key-order.ts). Known gap, shared with JSON.parse: integers beyond 2^53 lose
 * precision. readSharedJson (read-shared-json.ts) is this reader plus reuse of subtrees seen before,
 * for request bodies.
 */
import { PyFloat } from "../jinja/py-float.js";
import { inKeyOrder, isIndexKey } from "../jinja/key-order.js";
import { lineColumn } from "../text-position.js";

/** Bad JSON, with where it went wrong (1-based line and column, and the offset) for callers that report it as fields. */
export class JsonSyntaxError extends SyntaxError {
  constructor(
    message: string,
    /** What is wrong, without where (`expected ',' or '}'`). */
    readonly reason: string,
    readonly line: number,
    readonly column: number,
    readonly position: number,
  ) {
    super(message);
  }
}

/** Parses `text` as JSON, wrapping integral float literals in PyFloat. Throws SyntaxError on bad JSON. */
export function readJson(text: string): unknown {
  // JSON.parse (native, several times faster than any reader in JS) reads every value the way Python
  // does except integral floats (`1.0`, `2e3`), which it turns into ints. The scan finds those literals;
  // they are handed to JSON.parse as marked strings and turned into PyFloat afterwards. Errors are
  // worded differently by JSON.parse, so failures take the reader, which reports the position. Text
  // with an integer-like key takes the reader too: JSON.parse's objects would lose that key's position.
  const floats = integralFloats(text);
  if (floats !== undefined) {
    try {
      if (floats.length === 0) return JSON.parse(text) as unknown;
      // A string the sender wrote as "\u0000..." would look like a marker: such text takes the reader.
      if (!text.includes("\\u0000")) return restoreFloats(JSON.parse(markFloats(text, floats)) as unknown, floats.length / 2);
    } catch {
      // fall through: the reader reports the error with its position
    }
  }
  const reader = new Reader(text);
  reader.skipSpace();
  const value = reader.value();
  reader.skipSpace();
  if (reader.pos < text.length) reader.fail("unexpected text after the JSON value");
  return value;
}

/**
 * Why `text` is not JSON, as this reader says it (with line and column), for a caller whose
 * JSON.parse refused it (JSON.parse's message gives an offset at best). Reads the text again, so
 * only on that error path; the reader refuses whatever JSON.parse refuses.
 */
export function jsonSyntaxError(text: string, parseError: unknown): Error {
  try {
    readJson(text);
  } catch (err) {
    return err as Error;
  }
  return parseError instanceof Error ? parseError : new SyntaxError(String(parseError));
}

/**
 * `FILE:line:column: not valid JSON: why` for a file that is not JSON (the place first, as compilers
 * write it, so editors and terminals can jump to it), or `FILE: not valid JSON: why` without a place.
 */
export function notJsonMessage(name: string, err: unknown): string {
  if (err instanceof JsonSyntaxError) return `${name}:${err.line}:${err.column}: not valid JSON: ${err.reason}`;
  return `${name}: not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
}

// Python's json gives up near its recursion limit (1000) too; deeper input would exhaust our stack.
export const MAX_DEPTH = 1000;

/**
 * One pass over the text outside strings: the [start, end) offsets of every number literal that is an
 * integral float (`1.0`, `2e3`: those need PyFloat), or undefined when brackets nest deeper than the
 * reader allows (it reports that error itself) or when an object key is an array index ("0", "12":
 * only the reader keeps its position). A loop, not a regex: a regex over a 100 MB string literal
 * exhausts the stack.
 */
function integralFloats(text: string): number[] | undefined {
  const scan = scanJson(text, 0, MAX_DEPTH, false);
  return scan === undefined ? undefined : scan.floats;
}

/** What one scan of JSON text learnt: where the value ended, its integral float literals, how deeply it nests. */
export interface JsonScan {
  /** The offset after the container's closing bracket (the text's length for a whole-text scan). */
  readonly end: number;
  /** [start, end) of each integral float literal, from the scan's start. */
  readonly floats: number[];
  /** The deepest nesting met (1 for a container of scalars). */
  readonly height: number;
  /** An object key is an array index ("0", "12"): only the reader keeps its position (`toClose` scans). */
  readonly indexKeys: boolean;
}

/**
 * Scans JSON text from `start` outside strings: to the end of the text, or with `toClose` to the
 * bracket that closes the container opening at `start`. Undefined when brackets nest deeper than
 * `maxHeight`, (`toClose`) the container never closes, or (a whole-text scan) an object key is an
 * array index (only the reader keeps its position; a `toClose` scan goes on and says so): the reader
 * then decides, and reports any error. With `ends` (a `toClose` scan of an array), the offset from
 * `start` after each of the array's items is appended to it, as Reader.items notes them. A `toClose`
 * scan gives up (undefined) when the container is longer than `maxLength` characters.
 */
export function scanJson(text: string, start: number, maxHeight: number, toClose: boolean, ends?: number[], maxLength = Infinity): JsonScan | undefined {
  const floats: number[] = [];
  let depth = 0;
  let height = 0;
  let indexKeys = false;
  for (let i = start, limit = Math.min(text.length, start + maxLength); i < limit; i++) {
    const c = text.charCodeAt(i);
    // Whitespace first: most of pretty-printed text outside strings (control characters, which are
    // errors, pass here too: JSON.parse or the reader reports them).
    if (c <= 0x20) continue;
    if (c === 0x22) {
      const end = stringEnd(text, i);
      // Only a string that starts with a digit is looked at further: one comparison for all others.
      const d = text.charCodeAt(i + 1);
      if (d >= 0x30 && d <= 0x39 && end - i <= 11 && isIndexKey(text.slice(i + 1, end)) && colonFollows(text, end + 1)) {
        if (!toClose) return undefined;
        indexKeys = true;
      }
      i = end;
      if (depth === 1 && ends !== undefined) ends.push(i + 1 - start);
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > height && (height = depth) > maxHeight) return undefined;
    } else if (c === 0x5d || c === 0x7d) {
      if (--depth === 0 && toClose) return { end: i + 1, floats, height, indexKeys };
      if (depth === 1 && ends !== undefined) ends.push(i + 1 - start);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const from = i;
      let float = false;
      for (; i + 1 < text.length; i++) {
        const d = text.charCodeAt(i + 1);
        if (d === 0x2e || d === 0x65 || d === 0x45) float = true;
        else if (!(d === 0x2b || d === 0x2d || (d >= 0x30 && d <= 0x39))) break;
      }
      // Only a literal JSON allows: `01.0` or `1.e5` is a number to Number() but bad JSON, and marked as a
      // string it would get past JSON.parse (left as it is, JSON.parse refuses it and the reader says where).
      if (float) {
        const literal = text.slice(from, i + 1);
        if (Number.isInteger(Number(literal)) && JSON_NUMBER.test(literal)) floats.push(from - start, i + 1 - start);
      }
      if (depth === 1 && ends !== undefined) ends.push(i + 1 - start);
    } else if (depth === 1 && ends !== undefined && (c === 0x74 || c === 0x66 || c === 0x6e)) {
      // An item `true`, `false` or `null`: it ends after its letters (JSON.parse checks the word).
      while (i + 1 < text.length && text.charCodeAt(i + 1) >= 0x61 && text.charCodeAt(i + 1) <= 0x7a) i++;
      ends.push(i + 1 - start);
    }
  }
  return toClose ? undefined : { end: text.length, floats, height, indexKeys };
}

/**
 * JSON.parse of a text whose integral floats `scan` found, with each of them as its marked string
 * (isFloatMark; restoreFloats or the caller turns them into PyFloat). Undefined when the text holds a
 * string that would look like a mark (the reader must read it). Throws on bad JSON, as JSON.parse does.
 */
export function parseMarked(text: string, floats: readonly number[]): unknown {
  if (floats.length === 0) return JSON.parse(text) as unknown;
  // A string the sender wrote as "\u0000..." would look like a marker: such text takes the reader.
  if (text.includes("\\u0000")) return undefined;
  return JSON.parse(markFloats(text, floats)) as unknown;
}

/** Whether a value JSON.parse made from marked text is a float's mark. */
export const isFloatMark = (v: unknown): v is string => typeof v === "string" && v.charCodeAt(0) === 0;

/** The PyFloat a mark stands for. */
export const floatOfMark = (mark: string): PyFloat => new PyFloat(Number(mark.slice(1)));

/** Whether the next character from `at` that is not JSON whitespace is `:` (the string was a key). */
function colonFollows(text: string, at: number): boolean {
  let c = text.charCodeAt(at);
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++at);
  return c === 0x3a;
}

/**
 * The offset of the quote that closes the string opening at `open` (or the text's length when it is
 * unterminated): the next quote not escaped by an odd run of backslashes. indexOf skips the plain
 * characters natively.
 */
export function stringEnd(text: string, open: number): number {
  let end = open;
  for (;;) {
    end = text.indexOf('"', end + 1);
    if (end < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return end;
  }
}

/** Marks the literal `1.0` as the string "\u00001.0" (a NUL cannot start a string JSON.parse made otherwise). */
function markFloats(text: string, floats: readonly number[]): string {
  let out = "";
  let at = 0;
  for (let k = 0; k < floats.length; k += 2) {
    out += text.slice(at, floats[k]) + '"\\u0000' + text.slice(floats[k], floats[k + 1]) + '"';
    at = floats[k + 1]!;
  }
  return out + text.slice(at);
}

/** Turns the marked strings back into PyFloat, in place (the values are fresh from JSON.parse). */
function restoreFloats(value: unknown, count: number): unknown {
  let left = count;
  const isMark = isFloatMark;
  const float = (mark: string): PyFloat => (left--, floatOfMark(mark));
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length && left > 0; i++) {
        const v: unknown = node[i];
        if (isMark(v)) node[i] = float(v);
        else walk(v);
      }
      return;
    }
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      // defineProperty: plain assignment to "__proto__" would set the prototype instead.
      if (isMark(v)) Object.defineProperty(obj, key, { value: float(v), enumerable: true, writable: true, configurable: true });
      else walk(v);
      if (left === 0) return;
    }
  };
  if (isMark(value)) return float(value);
  walk(value);
  return value;
}

/**
 * The longest string literal (quotes included) Reader.string takes as it is when it holds no escape: 12
 * characters, as V8 copies them (a slice of 13 or more is a view that would keep the whole text alive,
 * and a shared subtree outlives its body).
 */
const SHORT_STRING = 13;

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
/** A whole JSON number literal, NUMBER anchored (scanJson's check of an integral float before it marks it). */
export const JSON_NUMBER = new RegExp(`^(?:${NUMBER.source})$`);

export class Reader {
  pos = 0;
  depth = 0;
  /** The deepest nesting reached so far (readSharedJson: how deeply a subtree it keeps nests). */
  protected peak = 0;
  constructor(readonly text: string) {}

  /** Notes nesting `depth` as reached (by a subtree taken as a whole, not read here). */
  protected reached(depth: number): void {
    if (depth > this.peak) this.peak = depth;
  }

  /** Says where as line:column (what an editor jumps to) and the offset. */
  fail(message: string): never {
    const { line, column } = lineColumn(this.text, this.pos);
    throw new JsonSyntaxError(`${message} at line ${line}, column ${column} (position ${this.pos})`, message, line, column, this.pos);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    while (p < t.length) {
      const c = t.charCodeAt(p);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      p++;
    }
    this.pos = p;
  }

  value(): unknown {
    const c = this.text[this.pos];
    if (c === "{") return this.object();
    if (c === "[") return this.array();
    if (c === '"') return this.string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
    for (const [word, val] of [["true", true], ["false", false], ["null", null]] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return val;
      }
    }
    return this.fail(c === undefined ? "unexpected end of JSON" : `unexpected character ${JSON.stringify(c)}`);
  }

  /** Steps into `{` or `[`; true when the container is empty (its closing bracket already read). */
  protected open(close: string): boolean {
    // Deep nesting would overflow the JS stack; JSON.parse has no such limit, so we bound it clearly.
    if (++this.depth > MAX_DEPTH) this.fail("JSON nested too deeply");
    this.reached(this.depth);
    this.pos++;
    this.skipSpace();
    if (this.text[this.pos] !== close) return false;
    this.pos++;
    this.depth--;
    return true;
  }

  /** After an item: true at the closing bracket, false after a comma. */
  private next(close: string): boolean {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === close) {
      this.pos++;
      this.depth--;
      return true;
    }
    if (c !== ",") this.fail(`expected ',' or '${close}'`);
    this.pos++;
    this.skipSpace();
    return false;
  }

  protected object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.open("}")) return out;
    // The keys in text order, kept only once an integer-like key shows up (until then the object's
    // own order is the text's).
    let order: string[] | undefined;
    do {
      if (this.text[this.pos] !== '"') this.fail("expected a property name");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      if (order !== undefined) {
        if (!Object.prototype.hasOwnProperty.call(out, key)) order.push(key);
      } else if (isIndexKey(key)) {
        order = Object.keys(out);
        order.push(key);
      }
      const value = this.value();
      // A key Object.prototype has ("__proto__", "toString") is defined, not assigned: it must become an
      // own data property as with JSON.parse, never call a setter or meet a read-only inherited property.
      // Any other key is assigned, several times faster.
      if (key in Object.prototype) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
    } while (!this.next("}"));
    return order === undefined ? out : inKeyOrder(out, order);
  }

  protected array(): unknown[] {
    const out: unknown[] = [];
    if (this.open("]")) return out;
    return this.items(out);
  }

  /**
   * The rest of an open array whose first items are `out`, from the next item to the closing bracket.
   * With `ends`, the offset (from `base`) where each item's text ends is appended to it.
   */
  protected items(out: unknown[], ends?: number[], base = 0): unknown[] {
    do {
      out.push(this.value());
      ends?.push(this.pos - base);
    } while (!this.next("]"));
    return out;
  }

  /** A string literal: find its closing quote natively, then let JSON.parse decode and validate it. */
  private string(): string {
    const t = this.text;
    const start = this.pos;
    const end = stringEnd(t, start);
    if (end >= t.length) this.fail("unterminated string");
    this.pos = end + 1;
    // A short one without an escape or a control character is its characters: a JSON.parse call per key
    // of the root cost more than looking at them.
    if (end - start <= SHORT_STRING) {
      let plain = true;
      for (let i = start + 1; i < end; i++) {
        const c = t.charCodeAt(i);
        if (c < 0x20 || c === 0x5c) {
          plain = false;
          break;
        }
      }
      if (plain) return t.slice(start + 1, end);
    }
    try {
      return JSON.parse(t.slice(start, end + 1)) as string;
    } catch {
      this.pos = start;
      return this.fail("bad string (control character or escape)");
    }
  }

  private number(): number | PyFloat {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail("bad number");
    this.pos = NUMBER.lastIndex;
    const value = Number(m[0]);
    const isFloatLiteral = m[1] !== undefined || m[2] !== undefined;
    // Python's json reads `-0` as int 0; JS would keep -0.
    if (!isFloatLiteral) return value === 0 ? 0 : value;
    return Number.isInteger(value) ? new PyFloat(value) : value; // -0.0 included
  }
}
