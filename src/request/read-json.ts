/**
 * A JSON reader that keeps what JSON.parse throws away and Python keeps: a number written as a float
 * (`1.0`, `2e3`) stays a float. Integral floats become PyFloat so a template prints `1.0` the way
 * transformers does; non-integral numbers are floats in JS already. Everything else matches JSON.parse
 * (same values, same errors for bad input), so it can be used for every JSON file chatwire reads.
 *
 * Known gap, shared with JSON.parse: integers beyond 2^53 lose precision, and integer-like object keys
 * ("1") are enumerated first by JS objects whatever their position in the text.
 */
import { PyFloat } from "../jinja/py-float.js";

class JsonSyntaxError extends SyntaxError {}

/** Parses `text` as JSON, wrapping integral float literals in PyFloat. Throws SyntaxError on bad JSON. */
export function readJson(text: string): unknown {
  // No integral float literal (`1.0`, `2e3`) outside strings: JSON.parse (native, five times faster)
  // gives the same values. Its errors are worded differently, so failures take the slow path.
  if (jsonParseSuffices(text)) {
    try {
      return JSON.parse(text) as unknown;
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

// Python's json gives up near its recursion limit (1000) too; deeper input would exhaust our stack.
const MAX_DEPTH = 1000;

/**
 * One pass over the text outside strings: whether JSON.parse alone would read it the way the reader
 * does, i.e. no number literal is an integral float (`1.0`, `2e3`: those need PyFloat) and brackets nest
 * no deeper than the reader allows (it reports that error itself). A loop, not a regex: a regex over a
 * 100 MB string literal exhausts the stack.
 */
function jsonParseSuffices(text: string): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip the string: to the next quote that is not escaped
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_DEPTH) return false;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      let float = false;
      for (; i + 1 < text.length; i++) {
        const d = text.charCodeAt(i + 1);
        if (d === 0x2e || d === 0x65 || d === 0x45) float = true;
        else if (!(d === 0x2b || d === 0x2d || (d >= 0x30 && d <= 0x39))) break;
      }
      if (float && Number.isInteger(Number(text.slice(start, i + 1)))) return false;
    }
  }
  return true;
}
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Reader {
  pos = 0;
  depth = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(`${message} at position ${this.pos}`);
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
  private open(close: string): boolean {
    // Deep nesting would overflow the JS stack; JSON.parse has no such limit, so we bound it clearly.
    if (++this.depth > MAX_DEPTH) this.fail("JSON nested too deeply");
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

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.open("}")) return out;
    do {
      if (this.text[this.pos] !== '"') this.fail("expected a property name");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      // defineProperty, not assignment: a "__proto__" key must be an own property, as with JSON.parse.
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
    } while (!this.next("}"));
    return out;
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    if (this.open("]")) return out;
    do out.push(this.value());
    while (!this.next("]"));
    return out;
  }

  /** A string literal: find its closing quote natively, then let JSON.parse decode and validate it. */
  private string(): string {
    const t = this.text;
    const start = this.pos;
    let end = start;
    for (;;) {
      end = t.indexOf('"', end + 1);
      if (end < 0) this.fail("unterminated string");
      let slashes = 0;
      while (t.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) break; // an even run of backslashes does not escape the quote
    }
    this.pos = end + 1;
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
