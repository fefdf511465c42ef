/**
 * Writing JSON text: string bodies (escaped as Python's `json.dumps(ensure_ascii=False)` and
 * JSON.stringify do), strings that arrive in pieces, and number literals normalised to JSON.
 */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const PY_INT_RADIX = /^([+-]?)0([xXoObB])_?([0-9a-fA-F](?:_?[0-9a-fA-F])*)$/;
const PY_DECIMAL = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?$/;

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

const ORDINARY = 0;
const ESCAPED = 1;
const LT_CLASS = 2;
const SURROGATE = 3;
/** writeScanning's class of each ASCII character: ordinary, escaped by JSON, or `<`. */
const SCAN_CLASS = new Uint8Array(0x80);
for (let c = 0; c < 0x20; c++) SCAN_CLASS[c] = ESCAPED;
SCAN_CLASS[0x22] = ESCAPED;
SCAN_CLASS[0x5c] = ESCAPED;
SCAN_CLASS[0x3c] = LT_CLASS;

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

  /** Set by writeScanning: where the first `<` is in the text it escaped, or -1. */
  stopAt = -1;

  /**
   * For a streaming fast path: what write(s.slice(0, to)) returns, made in the same pass that finds
   * the first `<` in `s.slice(0, to)` (where a tagged value may end), whose index it leaves in
   * `stopAt`. Undefined, with nothing changed, when the text holds a surrogate or is long, or a high
   * half is held (then write() is the way). One table lookup per character: most characters of code
   * are ordinary, and a chain of comparisons per character cost more than the rest of the push.
   */
  writeScanning(s: string, to: number): string | undefined {
    if (this.high !== "" || to > SHORT_TEXT) return undefined;
    let out = "";
    let from = 0;
    let stopAt = -1;
    for (let i = 0; i < to; i++) {
      const c = s.charCodeAt(i);
      const k = c < 0x80 ? SCAN_CLASS[c]! : c >= 0xd800 && c <= 0xdfff ? SURROGATE : ORDINARY;
      if (k === ORDINARY) continue;
      if (k === LT_CLASS) {
        if (stopAt < 0) stopAt = i;
        continue;
      }
      if (k === SURROGATE) return undefined;
      const e = c === 0x22 ? '\\"' : c === 0x5c ? "\\\\" : CONTROL_ESCAPES[c]!;
      out += from === i ? e : s.slice(from, i) + e;
      from = i + 1;
    }
    this.stopAt = stopAt;
    return from === 0 ? (to === s.length ? s : s.slice(0, to)) : from === to ? out : out + s.slice(from, to);
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
export function readNumber(text: string, numbers: "json" | "python"): { json: string; value: number } | undefined {
  if (JSON_NUMBER.test(text)) return { json: text, value: Number(text) };
  if (numbers === "json") return undefined;
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
