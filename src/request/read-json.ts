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
  const reader = new Reader(text);
  reader.skipSpace();
  const value = reader.value();
  reader.skipSpace();
  if (reader.pos < text.length) reader.fail("unexpected text after the JSON value");
  return value;
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const PLAIN_STRING = /[^"\\\u0000-\u001f]*/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

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

  private enter(): void {
    // Deep nesting would overflow the JS stack; JSON.parse has no such limit, so we bound it clearly.
    if (++this.depth > 10_000) this.fail("JSON nested too deeply");
    this.pos++;
    this.skipSpace();
  }

  private object(): Record<string, unknown> {
    this.enter();
    const out: Record<string, unknown> = {};
    if (this.text[this.pos] === "}") {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') this.fail("expected a property name");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      // defineProperty, not assignment: a "__proto__" key must be an own property, as with JSON.parse.
      Object.defineProperty(out, key, { value: this.value(), enumerable: true, writable: true, configurable: true });
      this.skipSpace();
      const sep = this.text[this.pos++];
      if (sep === "}") break;
      if (sep !== ",") {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
      this.skipSpace();
    }
    this.depth--;
    return out;
  }

  private array(): unknown[] {
    this.enter();
    const out: unknown[] = [];
    if (this.text[this.pos] === "]") {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      out.push(this.value());
      this.skipSpace();
      const sep = this.text[this.pos++];
      if (sep === "]") break;
      if (sep !== ",") {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
      this.skipSpace();
    }
    this.depth--;
    return out;
  }

  private string(): string {
    const t = this.text;
    this.pos++; // opening quote
    let out = "";
    for (;;) {
      PLAIN_STRING.lastIndex = this.pos;
      PLAIN_STRING.exec(t);
      out += t.slice(this.pos, PLAIN_STRING.lastIndex);
      this.pos = PLAIN_STRING.lastIndex;
      const c = t[this.pos];
      if (c === '"') {
        this.pos++;
        return out;
      }
      if (c !== "\\") this.fail(c === undefined ? "unterminated string" : "control character in string");
      const e = t[this.pos + 1];
      if (e === "u") {
        const hex = t.slice(this.pos + 2, this.pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("bad \\u escape");
        out += String.fromCharCode(parseInt(hex, 16));
        this.pos += 6;
      } else {
        const ch = e === undefined ? undefined : ESCAPES[e];
        if (ch === undefined) this.fail("bad escape");
        out += ch;
        this.pos += 2;
      }
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
