/**
 * The Python str / list / dict methods templates call (`s.strip()`, `d.items()`, `d.get(k)`...).
 * Mutating methods are listed separately: the immutable sandbox refuses them with a SecurityError.
 */
import { strFormat } from "./pyformat.js";
import { budget } from "./limits.js";
import {
  JinjaError,
  Undefined,
  codePoints,
  copyDict,
  dictGet,
  dictItems,
  dictKeys,
  dictValues,
  hasSurrogates,
  iterator,
  isDict,
  isTuple,
  pyEq,
  pyIter,
  pyRepr,
  pyStr,
  strLength,
  tuple,
  typeName,
  type Dict,
  type Kwargs,
} from "./values.js";

export type Method = (self: never, args: unknown[], kwargs: Kwargs) => unknown;

/** jinja2.sandbox._mutable_spec, for the types we have. */
export const MUTATING: Readonly<Record<string, ReadonlySet<string>>> = {
  list: new Set(["append", "clear", "pop", "reverse", "insert", "sort", "extend", "remove"]),
  dict: new Set(["clear", "pop", "popitem", "setdefault", "update"]),
};

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

function stripChars(s: string, chars: unknown, left: boolean, right: boolean): string {
  const set = chars === null || chars === undefined ? PY_SPACE_SET : new Set(codePoints(needStr(chars, "strip")));
  const cps = hasSurrogates(s) ? Array.from(s) : null;
  if (cps === null) {
    let a = 0;
    let b = s.length;
    if (left) while (a < b && set.has(s[a]!)) a++;
    if (right) while (b > a && set.has(s[b - 1]!)) b--;
    return a === 0 && b === s.length ? s : s.slice(a, b);
  }
  let a = 0;
  let b = cps.length;
  if (left) while (a < b && set.has(cps[a]!)) a++;
  if (right) while (b > a && set.has(cps[b - 1]!)) b--;
  return cps.slice(a, b).join("");
}

function splitWhitespace(s: string, maxsplit: number, fromRight: boolean): string[] {
  const words: string[] = [];
  const cps = codePoints(s);
  if (!fromRight) {
    let i = 0;
    while (i < cps.length) {
      while (i < cps.length && PY_SPACE_SET.has(cps[i]!)) i++;
      if (i >= cps.length) break;
      if (maxsplit >= 0 && words.length === maxsplit) {
        // Python keeps the remainder as is, trailing whitespace included.
        words.push(cps.slice(i).join(""));
        break;
      }
      const start = i;
      while (i < cps.length && !PY_SPACE_SET.has(cps[i]!)) i++;
      words.push(cps.slice(start, i).join(""));
    }
    return words;
  }
  let i = cps.length;
  while (i > 0) {
    while (i > 0 && PY_SPACE_SET.has(cps[i - 1]!)) i--;
    if (i <= 0) break;
    if (maxsplit >= 0 && words.length === maxsplit) {
      words.push(cps.slice(0, i).join(""));
      break;
    }
    const end = i;
    while (i > 0 && !PY_SPACE_SET.has(cps[i - 1]!)) i--;
    words.push(cps.slice(i, end).join(""));
  }
  return words.reverse();
}

function splitSep(s: string, sep: string, maxsplit: number, fromRight: boolean): string[] {
  if (sep === "") throw new JinjaError("ValueError", "empty separator");
  const parts = s.split(sep);
  if (maxsplit < 0 || parts.length - 1 <= maxsplit) return parts;
  if (!fromRight) return [...parts.slice(0, maxsplit), parts.slice(maxsplit).join(sep)];
  const keep = parts.length - maxsplit;
  return [parts.slice(0, keep).join(sep), ...parts.slice(keep)];
}

function split(s: string, args: unknown[], kwargs: Kwargs, fromRight: boolean): string[] {
  const sep = arg(args, kwargs, 0, "sep", null);
  const maxsplit = Number(arg(args, kwargs, 1, "maxsplit", -1));
  const parts = sep === null ? splitWhitespace(s, maxsplit, fromRight) : splitSep(s, needStr(sep, "split"), maxsplit, fromRight);
  budget().steps_(parts.length);
  return parts;
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

function replace(s: string, args: unknown[]): string {
  const old = needStr(args[0], "replace");
  const repl = needStr(args[1], "replace");
  let count = args[2] === undefined ? -1 : Number(args[2]);
  let out: string;
  if (old === "") {
    const cps = codePoints(s);
    const pieces: string[] = [];
    for (let i = 0; i <= cps.length; i++) {
      if (count !== 0) {
        pieces.push(repl);
        count--;
      }
      if (i < cps.length) pieces.push(cps[i]!);
    }
    out = pieces.join("");
  } else if (count < 0) out = s.split(old).join(repl);
  else {
    const parts = s.split(old);
    out = parts.length - 1 <= count ? parts.join(repl) : parts.slice(0, count + 1).join(repl) + old + parts.slice(count + 1).join(old);
  }
  budget().stringLength(out.length);
  return out;
}

const IS_CASED = /\p{Lu}|\p{Ll}|\p{Lt}/u;
const IS_LETTER = /[\p{L}\p{M}\p{N}]/u;

/** Python str.title(): a cased char after an uncased one starts a word. */
function title(s: string): string {
  let prevCased = false;
  let out = "";
  for (const ch of s) {
    out += prevCased ? ch.toLowerCase() : ch.toUpperCase();
    prevCased = IS_CASED.test(ch) || (/\p{L}/u.test(ch) && IS_LETTER.test(ch) && ch.toLowerCase() !== ch.toUpperCase());
  }
  return out;
}

export function capitalize(s: string): string {
  const cps = codePoints(s);
  if (cps.length === 0) return s;
  return cps[0]!.toUpperCase() + cps.slice(1).join("").toLowerCase();
}

const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
function splitlines(s: string, keepends: boolean): string[] {
  const out: string[] = [];
  let last = 0;
  for (const m of s.matchAll(LINE_BREAK)) {
    const end = (m.index ?? 0) + m[0].length;
    out.push(s.slice(last, keepends ? end : m.index));
    last = end;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

function classify(re: RegExp, cased?: "upper" | "lower"): (s: string) => boolean {
  return (s) => {
    if (cased) {
      let sawCased = false;
      for (const ch of s) {
        if (ch.toUpperCase() !== ch.toLowerCase()) {
          sawCased = true;
          if ((cased === "upper" ? ch.toUpperCase() : ch.toLowerCase()) !== ch) return false;
        }
      }
      return sawCased;
    }
    return s.length > 0 && re.test(s);
  };
}

function partition(s: string, sep: unknown, fromRight: boolean): unknown[] {
  const x = needStr(sep, "partition");
  if (x === "") throw new JinjaError("ValueError", "empty separator");
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
  items.forEach((item, i) => {
    if (typeof item !== "string") {
      throw new JinjaError("TypeError", `sequence item ${i}: expected str instance, ${typeName(item)} found`);
    }
  });
  const out = (items as string[]).join(s);
  budget().stringLength(out.length);
  return out;
};

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
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
  casefold: (s) => s.toLowerCase(),
  swapcase: (s) => Array.from(s, (c) => (c.toUpperCase() === c ? c.toLowerCase() : c.toUpperCase())).join(""),
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
    return needle === "" ? strLength(sub) + 1 : sub.split(needle).length - 1;
  },
  join,
  format: (s, a, k) => strFormat(s, a, k, formatField),
  isdigit: classify(/^\p{Nd}+$/u),
  isdecimal: classify(/^\p{Nd}+$/u),
  isnumeric: classify(/^[\p{Nd}\p{Nl}\p{No}]+$/u),
  isalpha: classify(/^\p{L}+$/u),
  isalnum: classify(/^[\p{L}\p{Nd}\p{Nl}\p{No}]+$/u),
  isspace: (s) => s.length > 0 && Array.from(s).every((c) => PY_SPACE_SET.has(c)),
  isupper: classify(/./, "upper"),
  islower: classify(/./, "lower"),
  istitle: (s) => s.length > 0 && title(s) === s && /\p{L}/u.test(s),
  zfill: (s, a) => {
    const width = Number(a[0]);
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

export const LIST_METHODS: Readonly<Record<string, (l: unknown[], args: unknown[], kwargs: Kwargs) => unknown>> = {
  index: (l, a) => {
    const i = l.findIndex((x) => pyEq(x, a[0]));
    if (i < 0) throw new JinjaError("ValueError", `${pyRepr(a[0])} is not in list`);
    return i;
  },
  count: (l, a) => l.filter((x) => pyEq(x, a[0])).length,
  copy: (l) => l.slice(),
};

export const DICT_METHODS: Readonly<Record<string, (d: Dict, args: unknown[], kwargs: Kwargs) => unknown>> = {
  items: (d) => iterator(dictItems(d), "dict_items"),
  keys: (d) => iterator(dictKeys(d), "dict_keys"),
  values: (d) => iterator(dictValues(d), "dict_values"),
  get: (d, a) => {
    const v = dictGet(d, a[0]);
    return v === undefined ? (a.length > 1 ? a[1] : null) : v;
  },
  copy: (d) => copyDict(d),
};

/**
 * The methods that accept keyword arguments; every other one raises as CPython's does. The message
 * names the type for methods CPython declares with Argument Clinic, and not for the older few.
 */
const TAKES_KWARGS = new Set(["str.split", "str.rsplit", "str.splitlines", "str.format"]);
const BARE_NAMES = new Set(["startswith", "endswith", "find", "rfind", "index", "rindex", "count"]);
export function checkKwargs(type: string, name: string, kwargs: Kwargs): void {
  if (kwargs === null || TAKES_KWARGS.has(`${type}.${name}`)) return;
  for (const _ in kwargs) {
    const shown = type === "str" && BARE_NAMES.has(name) ? name : `${type}.${name}`;
    throw new JinjaError("TypeError", `${shown}() takes no keyword arguments`);
  }
}

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
