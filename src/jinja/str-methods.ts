/**
 * Python's str methods as templates call them (`s.strip()`, `s.split(",")`, `s.format(...)`), on code
 * points where Python counts them, and charged to the render budget as they work.
 */
import { strFormat } from "./pyformat.js";
import { ChatwireError } from "../errors.js";
import { NS_PER_UNIT, budget } from "./limits.js";
import { anyMatch, replaceEach } from "./text-scan.js";
import { JinjaError, dictGet, isDict, isTuple, pyIter, pyRepr, tuple, typeName, type Kwargs } from "./values.js";
import { codePoints, hasSurrogates, strLength } from "./code-points.js";

function arg(args: unknown[], kwargs: Kwargs, i: number, name: string, fallback: unknown): unknown {
  if (i < args.length) return args[i];
  if (kwargs !== null && Object.prototype.hasOwnProperty.call(kwargs, name)) return kwargs[name];
  return fallback;
}

function needStr(v: unknown, what: string): string {
  if (typeof v !== "string") throw new JinjaError("TypeError", `${what} arg must be None or str, not ${typeName(v)}`);
  return v;
}

/** Python's str.isspace() characters (str.split() and strip() without arguments use them). */
const PY_SPACE = "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
const PY_SPACE_SET = new Set(PY_SPACE);

/** The code point ending at unit index `end` (exclusive), as a string. */
function charBefore(s: string, end: number): string {
  const c = s.charCodeAt(end - 1);
  if (c >= 0xdc00 && c <= 0xdfff && end >= 2) {
    const h = s.charCodeAt(end - 2);
    if (h >= 0xd800 && h <= 0xdbff) return s.slice(end - 2, end);
  }
  return s[end - 1]!;
}
function charAt(s: string, i: number): string {
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return s.slice(i, i + 2);
  }
  return s[i]!;
}

/** Costs only what it strips: it walks code points in from the ends, building no array. */
function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  // Reading a concatenation's characters flattens it: a copy of all of it, so all of it is charged.
  budget().scan(s.length);
  const set = chars === null || chars === undefined ? PY_SPACE_SET : new Set(codePoints(needStr(chars, "strip")));
  let a = 0;
  let b = s.length;
  if (left) {
    for (let ch = a < b ? charAt(s, a) : ""; a < b && set.has(ch); ch = a < b ? charAt(s, a) : "") a += ch.length;
  }
  if (right) {
    for (let ch = b > a ? charBefore(s, b) : ""; b > a && set.has(ch); ch = b > a ? charBefore(s, b) : "") b -= ch.length;
  }
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

const isSpaceUnit = (s: string, i: number): boolean => PY_SPACE_SET.has(s[i]!);

/**
 * str.split() without a separator. Python's whitespace is all in the BMP, so UTF-16 units can be scanned
 * directly (a surrogate is never whitespace) and words are slices: no per-character array.
 */
function splitWhitespace(s: string, maxsplit: number, fromRight: boolean): string[] {
  const b = budget();
  b.scan(s.length);
  const words: string[] = [];
  const push = (w: string): void => {
    words.push(w);
    if ((words.length & 1023) === 0) b.items(1024);
  };
  if (!fromRight) {
    let i = 0;
    while (i < s.length) {
      while (i < s.length && isSpaceUnit(s, i)) i++;
      if (i >= s.length) break;
      if (maxsplit >= 0 && words.length === maxsplit) {
        // Python keeps the remainder as is, trailing whitespace included.
        push(s.slice(i));
        break;
      }
      const start = i;
      while (i < s.length && !isSpaceUnit(s, i)) i++;
      push(s.slice(start, i));
    }
  } else {
    let i = s.length;
    while (i > 0) {
      while (i > 0 && isSpaceUnit(s, i - 1)) i--;
      if (i <= 0) break;
      if (maxsplit >= 0 && words.length === maxsplit) {
        push(s.slice(0, i));
        break;
      }
      const end = i;
      while (i > 0 && !isSpaceUnit(s, i - 1)) i--;
      push(s.slice(i, end));
    }
    words.reverse();
  }
  b.items(words.length & 1023);
  return words;
}

/** One split makes at most this many parts (far more than a chat template ever splits into). */
const MAX_SPLIT_PARTS = 1 << 22;

function splitSep(s: string, sep: string, maxsplit: number, fromRight: boolean): string[] {
  if (sep === "") throw new JinjaError("ValueError", "empty separator");
  const b = budget();
  b.scan(s.length);
  if (maxsplit < 0) {
    // A native split, capped at the items this render may still build (it cannot allocate past them).
    const room = b.itemRoom();
    const parts = s.split(sep, Math.min(room, MAX_SPLIT_PARTS) + 1);
    if (parts.length > MAX_SPLIT_PARTS) throw new ChatwireError("limit_exceeded", `split() would make more than ${MAX_SPLIT_PARTS} parts`);
    b.items(parts.length);
    return parts;
  }
  const parts: string[] = [];
  if (!fromRight) {
    let from = 0;
    for (let n = 0; n < maxsplit; n++) {
      const i = s.indexOf(sep, from);
      if (i < 0) break;
      parts.push(s.slice(from, i));
      from = i + sep.length;
    }
    parts.push(s.slice(from));
  } else {
    let to = s.length;
    for (let n = 0; n < maxsplit; n++) {
      const i = to - sep.length < 0 ? -1 : s.lastIndexOf(sep, to - sep.length);
      if (i < 0) break;
      parts.push(s.slice(i + sep.length, to));
      to = i;
    }
    parts.push(s.slice(0, to));
    parts.reverse();
  }
  b.items(parts.length);
  return parts;
}

function split(s: string, args: unknown[], kwargs: Kwargs, fromRight: boolean): string[] {
  const sep = arg(args, kwargs, 0, "sep", null);
  const maxsplit = Number(arg(args, kwargs, 1, "maxsplit", -1));
  return sep === null ? splitWhitespace(s, maxsplit, fromRight) : splitSep(s, needStr(sep, "split"), maxsplit, fromRight);
}

/** Code-point index (Python) -> UTF-16 index (JS), and back, for strings with astral characters. */
function toUnitIndex(s: string, cp: number): number {
  if (!hasSurrogates(s)) return cp;
  let unit = 0;
  for (let i = 0; i < cp && unit < s.length; i++) unit += (s.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
  return unit;
}
function toCodePointIndex(s: string, unit: number): number {
  if (unit < 0 || !hasSurrogates(s)) return unit;
  return strLength(s.slice(0, unit));
}

/** Python's (start, end) slice arguments of find/count/startswith, resolved to a substring window. */
function window(s: string, args: unknown[], from: number): { sub: string; offset: number } {
  if ((args[from] === undefined || args[from] === null) && (args[from + 1] === undefined || args[from + 1] === null)) {
    return { sub: s, offset: 0 };
  }
  const n = strLength(s);
  const norm = (v: unknown, dflt: number): number => {
    if (v === undefined || v === null) return dflt;
    let i = Number(v);
    if (i < 0) i = Math.max(0, n + i);
    return Math.min(i, n);
  };
  const start = norm(args[from], 0);
  const end = norm(args[from + 1], n);
  if (start === 0 && end === n) return { sub: s, offset: 0 };
  const a = toUnitIndex(s, start);
  const b = Math.max(a, toUnitIndex(s, end));
  return { sub: s.slice(a, b), offset: start };
}

function find(s: string, args: unknown[], fromRight: boolean): number {
  const needle = needStr(args[0], "find");
  const { sub, offset } = window(s, args, 1);
  budget().scan(sub.length);
  const i = fromRight ? sub.lastIndexOf(needle) : sub.indexOf(needle);
  return i < 0 ? -1 : toCodePointIndex(sub, i) + offset;
}

function affix(s: string, args: unknown[], atEnd: boolean): boolean {
  const { sub } = window(s, args, 1);
  const test = (p: unknown): boolean => {
    const x = needStr(p, atEnd ? "endswith" : "startswith");
    return atEnd ? sub.endsWith(x) : sub.startsWith(x);
  };
  if (Array.isArray(args[0]) && isTuple(args[0])) return args[0].some(test);
  if (typeof args[0] !== "string") {
    throw new JinjaError(
      "TypeError",
      `${atEnd ? "endswith" : "startswith"} first arg must be str or a tuple of str, not ${typeName(args[0])}`,
    );
  }
  return test(args[0]);
}

/** Non-overlapping occurrences of `needle` (not empty) in s, at most `max`; one step per occurrence. */
function countOccurrences(s: string, needle: string, max: number): number {
  const b = budget();
  b.scan(s.length);
  let n = 0;
  for (let i = s.indexOf(needle); i >= 0 && n < max; i = s.indexOf(needle, i + needle.length)) {
    n++;
    b.step();
  }
  return n;
}

/** A replacement string for String.prototype.replaceAll, taken literally (`$` is special there). */
const literal = (s: string): string => (s.includes("$") ? s.replaceAll("$", "$$$$") : s);

/**
 * Replacements up to this many are one native replaceAll. More take a loop: V8's replaceAll spends
 * 0.3-0.7 µs a match (12 M matches: 9 s) in one call no clock can interrupt, while the loop costs
 * less per match and takes a step for each.
 */
const NATIVE_REPLACEMENTS = 4096;

/**
 * str.replace: the replacements are counted first, so the result's size is known (and refused or charged)
 * before it is built; a few are one native replaceAll, many a stepped loop.
 */
function replace(s: string, args: unknown[]): string {
  const old = needStr(args[0], "replace");
  const repl = needStr(args[1], "replace");
  const count = args[2] === undefined ? -1 : Number(args[2]);
  const limit = count < 0 ? Infinity : count;
  const slots = old === "" ? strLength(s) + 1 : 0;
  const n = old === "" ? Math.min(slots, limit) : countOccurrences(s, old, limit);
  if (n === 0) return s;
  const b = budget();
  b.stringLength(s.length + n * (repl.length - old.length));
  const few = n <= NATIVE_REPLACEMENTS;
  if (old === "") {
    // Python inserts `repl` before every code point and at the end (the u flag steps by code point).
    if (n === slots && few) return hasSurrogates(s) ? s.replace(/(?:)/gu, literal(repl)) : s.replaceAll("", literal(repl));
    const out = new PieceJoiner();
    let i = 0;
    for (let k = 0; k < n; k++) {
      b.step();
      out.push(repl);
      if (k < n - 1 || i < s.length) {
        const ch = i < s.length ? charAt(s, i) : "";
        out.push(ch);
        i += ch.length;
      }
    }
    out.push(s.slice(i));
    return out.join();
  }
  if (count < 0 && few) return s.replaceAll(old, literal(repl));
  const out = new PieceJoiner();
  let from = 0;
  for (let k = 0; k < n; k++) {
    b.step();
    const i = s.indexOf(old, from);
    out.push(s.slice(from, i));
    out.push(repl);
    from = i + old.length;
  }
  out.push(s.slice(from));
  return out.join();
}

/** Pieces joined every few thousand, so no list of millions of pieces is ever held. */
class PieceJoiner {
  private readonly chunks: string[] = [];
  private pieces: string[] = [];
  push(piece: string): void {
    this.pieces.push(piece);
    if (this.pieces.length >= 4096) {
      this.chunks.push(this.pieces.join(""));
      this.pieces = [];
    }
  }
  join(): string {
    this.chunks.push(this.pieces.join(""));
    return this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join("");
  }
}

/** The four Unicode digraphs whose title case differs from their upper case (ǅ, ǈ, ǋ, ǲ). */
const TITLE_CASE: Readonly<Record<string, string>> = {
  "\u01c4": "\u01c5", "\u01c5": "\u01c5", "\u01c6": "\u01c5",
  "\u01c7": "\u01c8", "\u01c8": "\u01c8", "\u01c9": "\u01c8",
  "\u01ca": "\u01cb", "\u01cb": "\u01cb", "\u01cc": "\u01cb",
  "\u01f1": "\u01f2", "\u01f2": "\u01f2", "\u01f3": "\u01f2",
};
const titleCase = (ch: string): string => TITLE_CASE[ch] ?? ch.toUpperCase();

/**
 * Python str.title(): in each run of cased characters the first is upper-cased (title case) and the rest
 * lower-cased; uncased characters (digits, apostrophes...) end a run. One native replace, one step per run.
 */
function title(s: string): string {
  const b = budget();
  b.stringLength(s.length);
  return replaceEach(s, isAscii(s) ? /[A-Za-z]+/g : /\p{Cased}+/gu, (m) => {
    const run = m[0];
    const first = charAt(run, 0);
    return titleCase(first) + run.slice(first.length).toLowerCase();
  });
}

export function capitalize(s: string): string {
  if (s.length === 0) return s;
  budget().stringLength(s.length);
  const first = charAt(s, 0);
  return first.toUpperCase() + s.slice(first.length).toLowerCase();
}

const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
function splitlines(s: string, keepends: boolean): string[] {
  const b = budget();
  b.scan(s.length);
  const out: string[] = [];
  let last = 0;
  for (const m of s.matchAll(LINE_BREAK)) {
    const end = (m.index ?? 0) + m[0].length;
    out.push(s.slice(last, keepends ? end : m.index));
    if ((out.length & 1023) === 0) b.items(1024);
    last = end;
  }
  if (last < s.length) out.push(s.slice(last));
  b.items(out.length & 1023);
  return out;
}

/** All characters of a non-empty s are in the class; `outside` matches one character not in it. */
function classify(outside: RegExp): (s: string) => boolean {
  return (s) => s.length > 0 && !anyMatch(s, outside);
}
/** CPython's isupper/islower: no cased character of the other kind (or title case), and at least one of this kind. */
function cased(has: RegExp, hasNot: RegExp): (s: string) => boolean {
  return (s) => anyMatch(s, has) && !anyMatch(s, hasNot);
}
const NOT_PY_SPACE = new RegExp(`[^${Array.from(PY_SPACE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")).join("")}]`);
const NON_ASCII = /[^\x00-\x7f]/;
function isAscii(s: string): boolean {
  return !anyMatch(s, NON_ASCII, false);
}

function partition(s: string, sep: unknown, fromRight: boolean): unknown[] {
  const x = needStr(sep, "partition");
  if (x === "") throw new JinjaError("ValueError", "empty separator");
  budget().scan(s.length);
  const i = fromRight ? s.lastIndexOf(x) : s.indexOf(x);
  if (i < 0) return tuple(fromRight ? ["", "", s] : [s, "", ""]);
  return tuple([s.slice(0, i), x, s.slice(i + x.length)]);
}

function justify(s: string, args: unknown[], how: "l" | "r" | "c"): string {
  const width = Number(args[0]);
  const fill = args[1] === undefined ? " " : needStr(args[1], "fill");
  budget().stringLength(width);
  const n = strLength(s);
  if (n >= width) return s;
  const gap = width - n;
  if (how === "l") return s + fill.repeat(gap);
  if (how === "r") return fill.repeat(gap) + s;
  // CPython's center puts the extra fill on the left when the gap and width are both odd.
  const left = Math.floor(gap / 2) + (gap & width & 1);
  return fill.repeat(left) + s + fill.repeat(gap - left);
}

const join = (s: string, args: unknown[]): string => {
  const items = pyIter(args[0]);
  let size = s.length * Math.max(0, items.length - 1);
  items.forEach((item, i) => {
    if (typeof item !== "string") {
      throw new JinjaError("TypeError", `sequence item ${i}: expected str instance, ${typeName(item)} found`);
    }
    size += item.length;
  });
  budget().stringLength(size);
  return (items as string[]).join(s);
};

/** A case mapping of a whole string (native), charged as the string it builds. */
function mapped(out: string): string {
  budget().stringLength(out.length);
  return out;
}

/** Nanoseconds per code unit of a native case change outside ASCII (measured up to 14 on a busy machine). */
const NS_PER_UNIT_CASE = 20;

/**
 * A case change: looked at against the clock before it runs (it is one native call, up to 1 s on a
 * 60 M string outside ASCII), then charged by the size it made (which may be larger: ß -> SS).
 */
function caseChange(s: string, change: (s: string) => string): string {
  if (s.length >= 1 << 20) budget().native(s.length, isAscii(s) ? NS_PER_UNIT : NS_PER_UNIT_CASE);
  return mapped(change(s));
}

export const STR_METHODS: Readonly<Record<string, (s: string, args: unknown[], kwargs: Kwargs) => unknown>> = {
  strip: (s, a) => stripChars(s, a[0], true, true),
  lstrip: (s, a) => stripChars(s, a[0], true, false),
  rstrip: (s, a) => stripChars(s, a[0], false, true),
  split: (s, a, k) => split(s, a, k, false),
  rsplit: (s, a, k) => split(s, a, k, true),
  splitlines: (s, a, k) => splitlines(s, Boolean(arg(a, k, 0, "keepends", false))),
  startswith: (s, a) => affix(s, a, false),
  endswith: (s, a) => affix(s, a, true),
  replace: (s, a) => replace(s, a),
  upper: (s) => caseChange(s, (x) => x.toUpperCase()),
  lower: (s) => caseChange(s, (x) => x.toLowerCase()),
  casefold: (s) => caseChange(s, (x) => x.toLowerCase()),
  swapcase: (s) => {
    budget().stringLength(s.length);
    return replaceEach(s, isAscii(s) ? /[A-Za-z]/g : /\p{Cased}/gu, (m) => (m[0].toUpperCase() === m[0] ? m[0].toLowerCase() : m[0].toUpperCase()));
  },
  title: (s) => title(s),
  capitalize: (s) => capitalize(s),
  find: (s, a) => find(s, a, false),
  rfind: (s, a) => find(s, a, true),
  index: (s, a) => {
    const i = find(s, a, false);
    if (i < 0) throw new JinjaError("ValueError", "substring not found");
    return i;
  },
  rindex: (s, a) => {
    const i = find(s, a, true);
    if (i < 0) throw new JinjaError("ValueError", "substring not found");
    return i;
  },
  count: (s, a) => {
    const needle = needStr(a[0], "count");
    const { sub } = window(s, a, 1);
    return needle === "" ? strLength(sub) + 1 : countOccurrences(sub, needle, Infinity);
  },
  join,
  format: (s, a, k) => strFormat(s, a, k, formatField),
  isdigit: classify(/\P{Nd}/u),
  isdecimal: classify(/\P{Nd}/u),
  isnumeric: classify(/[^\p{Nd}\p{Nl}\p{No}]/u),
  isalpha: classify(/\P{L}/u),
  isalnum: classify(/[^\p{L}\p{Nd}\p{Nl}\p{No}]/u),
  isspace: classify(NOT_PY_SPACE),
  isupper: cased(/\p{Uppercase}/u, /[\p{Lowercase}\p{Lt}]/u),
  islower: cased(/\p{Lowercase}/u, /[\p{Uppercase}\p{Lt}]/u),
  istitle: (s) => s.length > 0 && title(s) === s && /\p{L}/u.test(s),
  zfill: (s, a) => {
    const width = Number(a[0]);
    budget().stringLength(width);
    const sign = s.startsWith("-") || s.startsWith("+") ? s[0]! : "";
    const body = sign ? s.slice(1) : s;
    return sign + body.padStart(width - sign.length, "0");
  },
  center: (s, a) => justify(s, a, "c"),
  ljust: (s, a) => justify(s, a, "l"),
  rjust: (s, a) => justify(s, a, "r"),
  partition: (s, a) => partition(s, a[0], false),
  rpartition: (s, a) => partition(s, a[0], true),
  removeprefix: (s, a) => (s.startsWith(needStr(a[0], "removeprefix")) ? s.slice((a[0] as string).length) : s),
  removesuffix: (s, a) => {
    const x = needStr(a[0], "removesuffix");
    return x !== "" && s.endsWith(x) ? s.slice(0, s.length - x.length) : s;
  },
};

/** str.format's `{0.attr}` / `{0[key]}` lookups: plain item or attribute access, no methods. */
function formatField(obj: unknown, key: string | number, isAttr: boolean): unknown {
  if (isDict(obj) && !isAttr) {
    const v = dictGet(obj, key);
    if (v === undefined) throw new JinjaError("KeyError", pyRepr(key));
    return v;
  }
  if (Array.isArray(obj) && typeof key === "number") {
    if (key >= obj.length) throw new JinjaError("IndexError", "list index out of range");
    return obj[key];
  }
  if (isDict(obj) && isAttr) {
    const v = dictGet(obj, String(key));
    if (v !== undefined) return v;
  }
  throw new JinjaError("AttributeError", `'${typeName(obj)}' object has no attribute ${pyRepr(String(key))}`);
}
