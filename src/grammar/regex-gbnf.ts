/**
 * JSON Schema `pattern` (an ECMAScript regex over the decoded string) as a GBNF expression over the
 * string's written form (JSON or Python escapes, or raw text), for the subset that maps onto GBNF:
 * literals and escapes, `.`, classes (`[a-z_]`, `[^"]`, `\d \w \s \D \W \S`), groups (`(...)`,
 * `(?:...)`, `(?<n>...)`), `|`, and the quantifiers `* + ? {n} {n,} {n,m}` (lazy or not: the same
 * language). An unanchored side (no `^` / `$`) allows any text there, as JSON Schema's search does.
 * Lookarounds, backreferences, word boundaries, inner anchors and `\p{...}` do not map:
 * `regexToGbnf` then returns the reason, and the caller leaves the pattern unenforced.
 *
 * `forbidden` characters (the first characters of the markers the value may not hold) are never
 * written plainly: a quoted string writes them as an escape (`\u003c`), so the grammar never writes a
 * marker inside a value; raw text, which has no escapes, leaves them out of classes and refuses a
 * pattern that needs one written as such (`^<b>$`).
 */
import { alt, lit, rangeClass } from "./gbnf.js";

type Range = [number, number];
type Node =
  | { kind: "set"; negated: boolean; ranges: Range[] }
  | { kind: "seq"; items: Node[] }
  | { kind: "alt"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number | undefined };

/** How the string's characters are written. */
export type RegexEncoding = "json" | "python" | "raw";

class Unsupported extends Error {}

const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]];
const SPACE: Range[] = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x2028, 0x2029], [0xfeff, 0xfeff]];
const LINE_ENDS: Range[] = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]];
const ANY: Node = { kind: "set", negated: true, ranges: [] };

function parse(source: string): Node {
  let i = 0;
  const cp = (): number => {
    const c = source.codePointAt(i);
    if (c === undefined) throw new Unsupported("unexpected end");
    i += c > 0xffff ? 2 : 1;
    return c;
  };
  const hex = (n: number): number => {
    const h = source.slice(i, i + n);
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) throw new Unsupported(`bad escape \\${source[i - 1]}${h}`);
    i += n;
    return parseInt(h, 16);
  };
  /** An escape after `\`: a set (shorthand) or one character. */
  const escape = (inClass: boolean): Node | number => {
    const c = String.fromCodePoint(cp());
    const shorthand: Record<string, Range[]> = { d: DIGIT, w: WORD, s: SPACE };
    const lower = c.toLowerCase();
    if (lower in shorthand) return { kind: "set", negated: c !== lower, ranges: shorthand[lower]! };
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, f: 12, v: 11, "0": 0 };
    if (c in simple && !(c === "0" && /[0-9]/.test(source[i] ?? ""))) return simple[c]!;
    if (c === "x") return hex(2);
    if (c === "u") return source[i] === "{" ? Number.NaN : hex(4);
    if (c === "b" && inClass) return 8;
    if (/[A-Za-z0-9]/.test(c)) throw new Unsupported(`\\${c}`);
    return c.codePointAt(0)!;
  };
  const charClass = (): Node => {
    const negated = source[i] === "^";
    if (negated) i++;
    const ranges: Range[] = [];
    let first = true;
    while (i < source.length && (source[i] !== "]" || first)) {
      first = false;
      const one = (): number | Node => (source[i] === "\\" ? (i++, escape(true)) : cp());
      const lo = one();
      if (typeof lo !== "number") {
        if (lo.kind !== "set") throw new Unsupported("a shorthand inside a class");
        ranges.push(...(lo.negated ? subtract([[0, 0x10ffff]], lo.ranges) : lo.ranges));
        continue;
      }
      if (Number.isNaN(lo)) throw new Unsupported("\\u{...}");
      if (source[i] === "-" && source[i + 1] !== "]" && i + 1 < source.length) {
        i++;
        const hi = one();
        if (typeof hi !== "number" || Number.isNaN(hi) || hi < lo) throw new Unsupported("a bad class range");
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    if (source[i] !== "]") throw new Unsupported("an unclosed class");
    i++;
    return { kind: "set", negated, ranges };
  };
  const atom = (): Node => {
    const c = source[i]!;
    if (c === "(") {
      i++;
      if (source.startsWith("?:", i)) i += 2;
      else if (source.startsWith("?<", i) && !/^\?<[=!]/.test(source.slice(i))) i = source.indexOf(">", i) + 1;
      else if (source[i] === "?") throw new Unsupported("lookaround");
      const inner = alternation();
      if (source[i] !== ")") throw new Unsupported("an unclosed group");
      i++;
      return inner;
    }
    if (c === "[") {
      i++;
      return charClass();
    }
    if (c === ".") {
      i++;
      return { kind: "set", negated: true, ranges: LINE_ENDS };
    }
    if (c === "\\") {
      i++;
      const e = escape(false);
      if (typeof e !== "number") return e;
      if (Number.isNaN(e)) throw new Unsupported("\\u{...}");
      return { kind: "set", negated: false, ranges: [[e, e]] };
    }
    if ("^$".includes(c)) throw new Unsupported(`an anchor ${c} inside the pattern`);
    if ("*+?{)|".includes(c) && !(c === "{" && !/^\{\d+(,\d*)?\}/.test(source.slice(i)))) throw new Unsupported(`a stray ${c}`);
    const code = cp();
    return { kind: "set", negated: false, ranges: [[code, code]] };
  };
  const quantified = (): Node => {
    let node = atom();
    for (;;) {
      const c = source[i];
      let min: number;
      let max: number | undefined;
      if (c === "*") [min, max] = [0, undefined];
      else if (c === "+") [min, max] = [1, undefined];
      else if (c === "?") [min, max] = [0, 1];
      else if (c === "{" && /^\{\d+(,\d*)?\}/.test(source.slice(i))) {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))!;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === "" ? undefined : Number(m[3]);
        i += m[0].length - 1;
      } else return node;
      i++;
      if (source[i] === "?") i++;
      if (max !== undefined && max < min) throw new Unsupported("a quantifier {n,m} with m < n");
      node = { kind: "repeat", node, min, max };
    }
  };
  const sequence = (): Node => {
    const items: Node[] = [];
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      if (source[i] === "$" && i === source.length - 1) break;
      items.push(quantified());
    }
    return { kind: "seq", items };
  };
  const alternation = (): Node => {
    const options = [sequence()];
    while (source[i] === "|") {
      i++;
      options.push(sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  };
  const anchoredStart = source.startsWith("^");
  if (anchoredStart) i = 1;
  const body = alternation();
  const anchoredEnd = source[i] === "$" && i === source.length - 1;
  if (anchoredEnd) i++;
  if (i !== source.length) throw new Unsupported(`unexpected ${source[i]}`);
  const anyText: Node = { kind: "repeat", node: ANY, min: 0, max: undefined };
  return { kind: "seq", items: [...(anchoredStart ? [] : [anyText]), body, ...(anchoredEnd ? [] : [anyText])] };
}

/** Characters a written form spells with an escape, and that escape. */
function escaped(code: number, encoding: RegexEncoding): string | undefined {
  if (encoding === "raw") return undefined;
  const quote = encoding === "json" ? 0x22 : 0x27;
  const short: Record<number, string> = { 0x5c: "\\\\", 0x0a: "\\n", 0x09: "\\t", 0x0d: "\\r", [quote]: `\\${String.fromCharCode(quote)}` };
  if (short[code] !== undefined) return short[code];
  if (code < 0x20 || (encoding === "json" && code === 0x7f)) return encoding === "json" ? `\\u${code.toString(16).padStart(4, "0")}` : `\\x${code.toString(16).padStart(2, "0")}`;
  return undefined;
}

/**
 * A character that starts a marker, written as an escape (`\u003c`, `\x3c`): the value is the same
 * and the marker never appears. Raw text has no escapes, so there it cannot be written.
 */
function hexEscape(code: number, encoding: RegexEncoding): string {
  if (encoding === "raw") throw new Unsupported(`it writes ${JSON.stringify(String.fromCodePoint(code))}, which starts a marker`);
  if (encoding === "python" && code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** The characters written plainly (never escaped) in each encoding, as excluded ranges. */
function needsEscape(encoding: RegexEncoding): Range[] {
  if (encoding === "raw") return [];
  return encoding === "json" ? [[0x00, 0x1f], [0x22, 0x22], [0x5c, 0x5c], [0x7f, 0x7f]] : [[0x00, 0x1f], [0x27, 0x27], [0x5c, 0x5c]];
}

function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Range[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function subtract(ranges: readonly Range[], minus: readonly Range[]): Range[] {
  let out = normalize(ranges);
  for (const [mlo, mhi] of minus) {
    out = out.flatMap(([lo, hi]): Range[] => {
      if (mhi < lo || mlo > hi) return [[lo, hi]];
      return [...(lo < mlo ? [[lo, mlo - 1] as Range] : []), ...(mhi < hi ? [[mhi + 1, hi] as Range] : [])];
    });
  }
  return out;
}

const inRanges = (code: number, ranges: readonly Range[]): boolean => ranges.some(([lo, hi]) => code >= lo && code <= hi);

function emitSet(node: Extract<Node, { kind: "set" }>, encoding: RegexEncoding, forbidden: readonly number[]): string {
  const special = needsEscape(encoding);
  const banned: Range[] = forbidden.map((c) => [c, c]);
  // The escapes that are always safe to write (the quote, backslash and common controls); other
  // controls allowed by a negated class are simply not written.
  const escapable = [0x22, 0x27, 0x5c, 0x0a, 0x09, 0x0d].filter((c) => escaped(c, encoding) !== undefined);
  const options: string[] = [];
  if (node.negated) {
    const out = normalize([...node.ranges, ...special, ...banned]);
    options.push(rangeClass(out, true));
    for (const c of escapable) if (!inRanges(c, node.ranges) && !forbidden.includes(c)) options.push(lit(escaped(c, encoding)!));
    for (const c of forbidden) if (!inRanges(c, node.ranges)) options.push(lit(hexEscape(c, encoding)));
  } else {
    // Raw text cannot escape: a class leaves a forbidden character out (one character alone is refused).
    const single = node.ranges.every(([lo, hi]) => lo === hi && lo === node.ranges[0]![0]);
    for (const c of forbidden) if (inRanges(c, node.ranges) && (encoding !== "raw" || single)) options.push(lit(hexEscape(c, encoding)));
    const plain = subtract(node.ranges, [...special, ...banned]);
    if (plain.length > 0) options.push(plain.length === 1 && plain[0]![0] === plain[0]![1] ? lit(String.fromCodePoint(plain[0]![0])) : rangeClass(plain, false));
    for (const [lo, hi] of normalize(node.ranges).flatMap(([lo, hi]) => special.filter(([s, e]) => s <= hi && e >= lo).map(([s, e]) => [Math.max(s, lo), Math.min(e, hi)] as Range))) {
      for (let c = lo; c <= hi; c++) {
        const e = escaped(c, encoding);
        if (e !== undefined) options.push(lit(e));
      }
    }
  }
  if (options.length === 0) throw new Unsupported("a class that matches nothing writable");
  return alt(options);
}

function emit(node: Node, encoding: RegexEncoding, forbidden: readonly number[]): string {
  switch (node.kind) {
    case "set":
      return emitSet(node, encoding, forbidden);
    case "seq": {
      // Runs of plain characters become one literal.
      const parts: string[] = [];
      let text = "";
      for (const item of node.items) {
        const one = item.kind === "set" && !item.negated && item.ranges.length === 1 && item.ranges[0]![0] === item.ranges[0]![1] ? item.ranges[0]![0] : undefined;
        if (one !== undefined && !forbidden.includes(one)) {
          text += escaped(one, encoding) ?? String.fromCodePoint(one);
          continue;
        }
        if (text !== "") parts.push(lit(text));
        text = "";
        parts.push(emit(item, encoding, forbidden));
      }
      if (text !== "") parts.push(lit(text));
      if (parts.includes('""')) parts.splice(0, parts.length, ...parts.filter((p) => p !== '""'));
      return parts.length === 0 ? '""' : parts.length === 1 ? parts[0]! : `(${parts.join(" ")})`;
    }
    case "alt":
      return `(${node.options.map((n) => emit(n, encoding, forbidden)).join(" | ")})`;
    case "repeat": {
      const inner = emit(node.node, encoding, forbidden);
      const grouped = inner.startsWith("(") && inner.endsWith(")") && balanced(inner) ? inner : `(${inner})`;
      const { min, max } = node;
      const q = min === 0 && max === undefined ? "*" : min === 1 && max === undefined ? "+" : min === 0 && max === 1 ? "?" : `{${min},${max ?? ""}}`;
      return `${grouped}${q === `{${min},${min}}` ? `{${min}}` : q}`;
    }
  }
}

/** Whether an expression `(...)` is one group (its first parenthesis closes at the end). */
function balanced(expr: string): boolean {
  let depth = 0;
  let inLiteral = false;
  let inClass = false;
  for (let i = 0; i < expr.length; i++) {
    const c = expr[i]!;
    if (c === "\\") i++;
    else if (inLiteral) inLiteral = c !== '"';
    else if (inClass) inClass = c !== "]";
    else if (c === '"') inLiteral = true;
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0 && i < expr.length - 1) return false;
  }
  return depth === 0;
}

/**
 * The GBNF expression for the inside of a string matching `pattern` (without the quotes), or
 * `{ reason }` when the pattern uses something GBNF cannot express or would write a forbidden
 * character.
 */
export function regexToGbnf(pattern: string, encoding: RegexEncoding, forbidden: readonly string[] = []): { expr: string } | { reason: string } {
  try {
    const codes = [...new Set(forbidden.map((c) => c.codePointAt(0)!))];
    return { expr: emit(parse(pattern), encoding, codes) };
  } catch (err) {
    if (err instanceof Unsupported) return { reason: err.message };
    throw err;
  }
}

/** One character of any value, as a string of `encoding` writes it (for length-bounded strings). */
export function anyCharGbnf(encoding: RegexEncoding, forbidden: readonly string[] = []): string {
  return emitSet({ kind: "set", negated: true, ranges: [] }, encoding, [...new Set(forbidden.map((c) => c.codePointAt(0)!))]);
}
