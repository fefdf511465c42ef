/**
 * Jinja2's built-in filters (jinja2/filters.py) that chat templates use, with transformers' `tojson`.
 * https://jinja.palletsprojects.com/en/3.1.x/templates/#list-of-builtin-filters
 */
import { getAttr, getItem } from "./access.js";
import { pyAdd } from "./ops.js";
import { budget } from "./limits.js";
import { capitalize, STR_METHODS } from "./str-methods.js";
import { PyFloat } from "./py-float.js";
import { percentFormat } from "./pyformat.js";
import { pySort } from "./pysort.js";
import { replaceEach } from "./text-scan.js";
import { hashKey } from "./dict.js";
import { DEFAULT_OPTIONS, type JsonCache } from "./tojson.js";
import {
  JinjaError,
  Undefined,
  floatValue,
  isDict,
  isFloat,
  isInt,
  isNumeric,
  pyBool,
  pyCompare,
  pyEq,
  pyIter,
  pyLen,
  pyStr,
  toNumber,
  tuple,
  typeName,
  dictItems,
  escapeHtml,
  iterator,
  Markup,
  type Kwargs,
} from "./values.js";
import { strLength, hasSurrogates, codePoints } from "./code-points.js";

/** What filters need from the running template: other filters/tests by name, and the JSON cache. */
export interface FilterEnv {
  filter(name: string, value: unknown, args: unknown[], kwargs: Kwargs): unknown;
  test(name: string, value: unknown, args: unknown[]): boolean;
  readonly json: JsonCache;
}

export type Filter = (value: unknown, args: unknown[], kwargs: Kwargs, env: FilterEnv) => unknown;

/** Bind a Python-style signature: positional args then keyword args, with defaults. */
function params(args: unknown[], kwargs: Kwargs, names: readonly string[], defaults: readonly unknown[], filter: string): unknown[] {
  const out = names.map((_, i) => (i < args.length ? args[i] : defaults[i]));
  if (args.length > names.length) {
    throw new JinjaError("TypeError", `${filter}() takes up to ${names.length + 1} positional arguments but ${args.length + 1} were given`);
  }
  if (kwargs !== null) {
    for (const key of Object.keys(kwargs)) {
      const i = names.indexOf(key);
      if (i < 0) throw new JinjaError("TypeError", `${filter}() got an unexpected keyword argument '${key}'`);
      out[i] = kwargs[key];
    }
  }
  return out;
}

/** Jinja2's make_attrgetter: `attribute` may be a dotted path (`a.b`) or an integer index. */
function attrGetter(attribute: unknown, env: FilterEnv, lower = false, dflt?: unknown): (item: unknown) => unknown {
  const parts = typeof attribute === "string" ? attribute.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [attribute];
  return (item) => {
    let v = item;
    for (const p of parts) v = getItem(v, p);
    if (dflt !== undefined && v instanceof Undefined) v = dflt;
    return lower ? ignoreCase(v) : v;
  };
}

/** A case-insensitive sort or unique key: str.lower(), charged like it. */
function ignoreCase(v: unknown): unknown {
  return typeof v === "string" ? STR_METHODS["lower"]!(v, [], null) : v;
}

/** Python's `<` on two keys. */
const pyLess = (a: unknown, b: unknown): boolean => pyCompare(a, b, "<") < 0;
/**
 * `<` on the one-item lists Jinja2's sort filter uses as keys (make_multi_attrgetter): list comparison
 * asks `==` first, so equal items are never ordered (`[none, none]|sort` works, `[none, 1]|sort` raises).
 */
const listLess = (a: unknown, b: unknown): boolean => !pyEq(a, b) && pyCompare(a, b, "<") < 0;

function sortItems(items: unknown[], key: (v: unknown) => unknown, reverse: boolean, lt: (a: unknown, b: unknown) => boolean): unknown[] {
  budget().items(items.length * 2);
  const keyed = items.map((v) => ({ v, k: key(v) }));
  pySort(keyed, (a, b) => lt(a.k, b.k), reverse);
  return keyed.map((e) => e.v);
}

/** select/reject/selectattr/rejectattr share this: args are [testName?, ...testArgs]. */
function selectOrReject(seq: unknown, args: unknown[], env: FilterEnv, keep: boolean, attribute: boolean): unknown[] {
  let getter: (v: unknown) => unknown = (v) => v;
  let rest = args;
  if (attribute) {
    if (rest.length === 0) throw new JinjaError("FilterArgumentError", "Missing parameter for attribute name");
    getter = attrGetter(rest[0], env);
    rest = rest.slice(1);
  }
  const test =
    rest.length === 0
      ? (v: unknown) => pyBool(v)
      : (v: unknown) => env.test(String(rest[0]), v, rest.slice(1));
  // Jinja2's _select_or_reject starts with `if value:`, so a None sequence selects nothing.
  const items = pyBool(seq) ? pyIter(seq) : [];
  budget().items(items.length);
  return iterator(items.filter((item) => test(getter(item)) === keep));
}

function toInt(value: unknown, dflt: unknown, base: number): unknown {
  if (typeof value === "string") {
    const s = value.trim().replace(/_/g, "");
    // Python 3.11 refuses to parse more than 4300 digits (ValueError); do_int then goes through float().
    if (base === 10 && /^[-+]?\d+$/.test(s) && s.replace(/^[-+]/, "").length > 4300) {
      const f = Number(s);
      return Number.isFinite(f) ? Math.trunc(f) : dflt;
    }
    if (base === 10 && /^[-+]?\d+$/.test(s)) {
      const b = BigInt(s);
      return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
    }
    if (base !== 10) {
      const n = parseInt(s.replace(/^0[xob]/i, ""), base);
      return Number.isNaN(n) ? dflt : n;
    }
    const f = Number(s);
    return s !== "" && Number.isFinite(f) ? Math.trunc(f) : dflt;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (isNumeric(value)) {
    const n = toNumber(value);
    return Number.isFinite(n) ? (typeof value === "bigint" ? value : Math.trunc(n)) : dflt;
  }
  return dflt;
}

function toFloat(value: unknown, dflt: unknown): unknown {
  if (typeof value === "string") {
    const s = value.trim().toLowerCase().replace(/_/g, "");
    const n = s === "inf" || s === "infinity" || s === "+inf" ? Infinity : s === "-inf" || s === "-infinity" ? -Infinity : s === "nan" ? NaN : s === "" ? NaN : Number(s);
    return Number.isNaN(n) && s !== "nan" ? dflt : floatValue(n);
  }
  if (isNumeric(value)) return floatValue(toNumber(value));
  return dflt;
}

/** Python's round(): correctly rounded from the exact binary value; exact ties go to the even digit. */
function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  if (ndigits < 0) {
    const m = 10 ** -ndigits;
    return pyRound(x / m, 0) * m;
  }
  const ax = Math.abs(x);
  const exact = ax.toFixed(Math.min(100, ndigits + 40));
  const dot = exact.indexOf(".");
  const kept = exact.slice(0, ndigits > 0 ? dot + 1 + ndigits : dot);
  const tail = exact.slice(dot + 1 + ndigits);
  const r = /^50*$/.test(tail) && Number(kept[kept.length - 1]) % 2 === 0 ? Number(kept) : Number(ax.toFixed(ndigits));
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/** round(int, ndigits) stays an int; a negative ndigits rounds to tens, hundreds... half to even. */
function roundInt(v: number, ndigits: number): number {
  if (ndigits >= 0) return v;
  const m = 10 ** -ndigits;
  const q = v / m;
  let r = Math.round(q);
  if (Math.abs(q % 1) === 0.5 && r % 2 !== 0) r -= 1;
  return r * m;
}

function indent(s: string, width: unknown, first: unknown, blank: unknown): string {
  const ind = typeof width === "string" ? width : " ".repeat(Number(width));
  const lines = (STR_METHODS["splitlines"]!(s + "\n", [], null) as string[]);
  // The result's size is known before the join: refuse it then, not after building it.
  budget().length(s.length + (lines.length + 1) * ind.length);
  let rv: string;
  if (pyBool(blank)) rv = lines.join("\n" + ind);
  else {
    rv = lines.shift() ?? "";
    if (lines.length > 0) rv += "\n" + lines.map((l) => (l ? ind + l : l)).join("\n");
  }
  if (pyBool(first)) rv = ind + rv;
  budget().stringLength(rv.length);
  return rv;
}

/** The first n code points of s, without an array of all of them. */
function prefixCodePoints(s: string, n: number): string {
  if (n <= 0) return "";
  if (!hasSurrogates(s)) return s.slice(0, n);
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, i);
}

function truncate(s: string, length: number, killwords: boolean, end: string, leeway: number): string {
  if (strLength(s) <= length + leeway) return s;
  if (killwords) return prefixCodePoints(s, length - strLength(end)) + end;
  const cut = prefixCodePoints(s, length - strLength(end));
  const i = cut.lastIndexOf(" ");
  return (i >= 0 ? cut.slice(0, i) : cut) + end;
}

/**
 * Jinja2's do_title: each piece between separators (`-`, whitespace, brackets) gets its first character
 * upper-cased and the rest lower-cased. One native replace, a step per word.
 */
function jinjaTitle(s: string): string {
  budget().stringLength(s.length);
  return replaceEach(s, /[^-\s({[<]+/gu, (m) => {
    const word = m[0];
    const n = word.codePointAt(0)! > 0xffff ? 2 : 1;
    return word.slice(0, n).toUpperCase() + word.slice(n).toLowerCase();
  });
}

function minMax(value: unknown, args: unknown[], kwargs: Kwargs, env: FilterEnv, max: boolean, name: string): unknown {
  const [caseSensitive, attribute] = params(args, kwargs, ["case_sensitive", "attribute"], [false, null], name);
  const items = pyIter(value);
  if (items.length === 0) return new Undefined(undefined, undefined, `No aggregated item, sequence was empty.`);
  budget().steps_(items.length);
  const get = attribute === null ? (v: unknown) => v : attrGetter(attribute, env);
  const key = (v: unknown): unknown => (pyBool(caseSensitive) ? get(v) : ignoreCase(get(v)));
  // Python's max/min: the new item against the best so far, with `>` for max and `<` for min.
  let best = items[0];
  let bestKey = key(best);
  for (let i = 1; i < items.length; i++) {
    const k = key(items[i]);
    const c = pyCompare(k, bestKey, max ? ">" : "<");
    if (max ? c > 0 : c < 0) {
      best = items[i];
      bestKey = k;
    }
  }
  return best;
}

/** do_map: `map('filter', ...)` or `map(attribute='x', default=...)`; a falsy value maps to nothing. */
function mapItems(v: unknown, a: unknown[], k: Kwargs, env: FilterEnv): unknown[] {
  const items = pyBool(v) ? pyIter(v) : [];
  budget().items(items.length);
  if (a.length === 0 && k !== null && "attribute" in k) {
    const getter = attrGetter(k["attribute"], env, false, "default" in k ? k["default"] : undefined);
    return items.map(getter);
  }
  if (a.length === 0) throw new JinjaError("FilterArgumentError", "map requires a filter argument");
  const name = String(a[0]);
  const rest = a.slice(1);
  return items.map((item) => env.filter(name, item, rest, k));
}

export const FILTERS: Readonly<Record<string, Filter>> = {
  abs: (v) => {
    if (typeof v === "bigint") return v < 0n ? -v : v;
    if (!isNumeric(v)) throw new JinjaError("TypeError", `bad operand type for abs(): '${typeName(v)}'`);
    return isFloat(v) ? floatValue(Math.abs(toNumber(v))) : Math.abs(toNumber(v));
  },
  attr: (v, a) => getAttr(v, String(a[0])),
  batch: (v, a, k) => {
    const [linecount, fill] = params(a, k, ["linecount", "fill_with"], [undefined, null], "batch");
    const n = Number(linecount);
    const out: unknown[][] = [];
    let tmp: unknown[] = [];
    const items = pyIter(v);
    // The batches hold the items once more, plus the fill: charged before a single one is made.
    budget().items(items.length + (fill !== null && n > 0 ? n : 0));
    for (const item of items) {
      if (tmp.length === n) {
        out.push(tmp);
        tmp = [];
      }
      tmp.push(item);
    }
    if (tmp.length > 0) {
      if (fill !== null) while (tmp.length < n) tmp.push(fill);
      out.push(tmp);
    }
    return iterator(out);
  },
  capitalize: (v) => capitalize(pyStr(v)),
  center: (v, a, k) => STR_METHODS["center"]!(pyStr(v), [params(a, k, ["width"], [80], "center")[0]], null),
  count: (v) => pyLen(v),
  default: (v, a, k) => {
    const [dflt, boolean] = params(a, k, ["default_value", "boolean"], ["", false], "default");
    return v instanceof Undefined || (pyBool(boolean) && !pyBool(v)) ? dflt : v;
  },
  dictsort: (v, a, k) => {
    const [caseSensitive, by, reverse] = params(a, k, ["case_sensitive", "by", "reverse"], [false, "key", false], "dictsort");
    if (!isDict(v)) throw new JinjaError("TypeError", "dictsort filter needs a mapping");
    const pos = by === "key" ? 0 : by === "value" ? 1 : -1;
    if (pos < 0) throw new JinjaError("FilterArgumentError", "You can only sort by either \"key\" or \"value\"");
    const items = dictItems(v);
    return sortItems(items, (it) => (pyBool(caseSensitive) ? (it as unknown[])[pos] : ignoreCase((it as unknown[])[pos])), pyBool(reverse), pyLess);
  },
  escape: (v) => escapeHtml(v),
  first: (v) => {
    if (typeof v === "string") return v === "" ? new Undefined(undefined, undefined, "No first item, sequence was empty.") : prefixCodePoints(v, 1);
    const items = pyIter(v);
    return items.length > 0 ? items[0] : new Undefined(undefined, undefined, "No first item, sequence was empty.");
  },
  float: (v, a, k) => toFloat(v, params(a, k, ["default"], [new PyFloat(0)], "float")[0]),
  format: (v, a, k) => {
    if (a.length > 0 && k !== null) throw new JinjaError("FilterArgumentError", "can't handle positional and keyword arguments at the same time");
    return percentFormat(pyStr(v), k !== null ? k : tuple([...a]));
  },
  indent: (v, a, k) => {
    const [width, first, blank] = params(a, k, ["width", "first", "blank"], [4, false, false], "indent");
    return indent(pyStr(v), width, first, blank);
  },
  int: (v, a, k) => {
    const [dflt, base] = params(a, k, ["default", "base"], [0, 10], "int");
    return toInt(v, dflt, Number(base));
  },
  items: (v) => {
    if (v instanceof Undefined) return [];
    if (!isDict(v)) throw new JinjaError("TypeError", `Can only get item pairs from a mapping.`);
    const items = dictItems(v);
    budget().items(items.length);
    return iterator(items);
  },
  join: (v, a, k, env) => {
    const [sep, attribute] = params(a, k, ["d", "attribute"], ["", null], "join");
    let items = pyIter(v);
    if (attribute !== null) items = items.map(attrGetter(attribute, env));
    const texts = items.map((x) => pyStr(x));
    const glue = pyStr(sep);
    let size = glue.length * Math.max(0, texts.length - 1);
    for (const t of texts) size += t.length;
    budget().stringLength(size);
    return texts.join(glue);
  },
  last: (v) => {
    const items = pyIter(v);
    return items.length > 0 ? items[items.length - 1] : new Undefined(undefined, undefined, "No last item, sequence was empty.");
  },
  length: (v) => pyLen(v),
  list: (v) => {
    const items = pyIter(v);
    budget().items(items.length);
    return items.slice();
  },
  lower: (v) => STR_METHODS["lower"]!(pyStr(v), [], null),
  map: (v, a, k, env) => iterator(mapItems(v, a, k, env)),
  max: (v, a, k, env) => minMax(v, a, k, env, true, "max"),
  min: (v, a, k, env) => minMax(v, a, k, env, false, "min"),
  reject: (v, a, _k, env) => selectOrReject(v, a, env, false, false),
  rejectattr: (v, a, _k, env) => selectOrReject(v, a, env, false, true),
  replace: (v, a, k) => {
    const [old, repl, count] = params(a, k, ["old", "new", "count"], [undefined, undefined, null], "replace");
    return STR_METHODS["replace"]!(pyStr(v), count === null ? [pyStr(old), pyStr(repl)] : [pyStr(old), pyStr(repl), count], null);
  },
  reverse: (v) => {
    if (typeof v === "string") return codePoints(v).reverse().join("");
    const items = pyIter(v);
    budget().items(items.length);
    return iterator(items.slice().reverse(), "list_reverseiterator");
  },
  round: (v, a, k) => {
    const [precision, method] = params(a, k, ["precision", "method"], [0, "common"], "round");
    const p = Number(precision);
    const x = toNumber(v);
    if (method === "common") {
      if (isInt(v) || typeof v === "boolean") return typeof v === "bigint" && p >= 0 ? v : roundInt(x, p);
      return floatValue(pyRound(x, p));
    }
    if (method !== "ceil" && method !== "floor") throw new JinjaError("FilterArgumentError", "method must be common, ceil or floor");
    const m = 10 ** p;
    return floatValue((method === "ceil" ? Math.ceil(x * m) : Math.floor(x * m)) / m);
  },
  safe: (v) => (v instanceof Markup ? v : new Markup(pyStr(v))),
  select: (v, a, _k, env) => selectOrReject(v, a, env, true, false),
  selectattr: (v, a, _k, env) => selectOrReject(v, a, env, true, true),
  sort: (v, a, k, env) => {
    const [reverse, caseSensitive, attribute] = params(a, k, ["reverse", "case_sensitive", "attribute"], [false, false, null], "sort");
    // Jinja2 sorts by a list of the attributes (`attribute='a,b'`), compared as a list.
    const getters = attribute === null ? [(x: unknown) => x] : typeof attribute === "string" ? attribute.split(",").map((a) => attrGetter(a, env)) : [attrGetter(attribute, env)];
    const cased = pyBool(caseSensitive);
    const part = (g: (x: unknown) => unknown) => (cased ? g : (x: unknown) => ignoreCase(g(x)));
    const parts = getters.map(part);
    if (parts.length === 1) return sortItems(pyIter(v).slice(), parts[0]!, pyBool(reverse), listLess);
    return sortItems(pyIter(v).slice(), (x) => parts.map((p) => p(x)), pyBool(reverse), pyLess);
  },
  string: (v) => pyStr(v),
  sum: (v, a, k, env) => {
    const [attribute, start] = params(a, k, ["attribute", "start"], [null, 0], "sum");
    let items = pyIter(v);
    if (attribute !== null) items = items.map(attrGetter(attribute, env));
    let total: unknown = start;
    budget().steps_(items.length);
    for (const item of items) total = pyAdd(total, item);
    return total;
  },
  title: (v) => jinjaTitle(pyStr(v)),
  tojson: (v, a, k, env) => {
    // Most templates call plain `|tojson`: one shared options object, no argument binding.
    if (a.length === 0 && k === null) return env.json.dump(v, DEFAULT_OPTIONS);
    const [ensureAscii, indentArg, separators, sortKeys] = params(
      a,
      k,
      ["ensure_ascii", "indent", "separators", "sort_keys"],
      [false, null, null, false],
      "tojson",
    );
    const ind = indentArg === null ? null : typeof indentArg === "string" ? indentArg : " ".repeat(Math.max(0, toNumber(indentArg)));
    let itemSeparator = ind === null ? ", " : ",";
    let keySeparator = ": ";
    if (separators !== null) {
      const seps = pyIter(separators);
      itemSeparator = pyStr(seps[0]);
      keySeparator = pyStr(seps[1]);
    }
    return env.json.dump(v, { indent: ind, itemSeparator, keySeparator, sortKeys: pyBool(sortKeys), ensureAscii: pyBool(ensureAscii) });
  },
  trim: (v, a, k) => STR_METHODS["strip"]!(pyStr(v), [params(a, k, ["chars"], [null], "trim")[0]], null),
  truncate: (v, a, k) => {
    const [length, killwords, end, leeway] = params(a, k, ["length", "killwords", "end", "leeway"], [255, false, "...", null], "truncate");
    return truncate(pyStr(v), Number(length), pyBool(killwords), pyStr(end), leeway === null ? 5 : Number(leeway));
  },
  unique: (v, a, k, env) => {
    const [caseSensitive, attribute] = params(a, k, ["case_sensitive", "attribute"], [false, null], "unique");
    const get = attribute === null ? (x: unknown) => x : attrGetter(attribute, env);
    // A set of the keys, as Jinja2's do_unique keeps (unhashable items raise TypeError there too).
    const seen = new Set<unknown>();
    const out: unknown[] = [];
    const items = pyIter(v);
    budget().items(items.length);
    for (const item of items) {
      const key = hashKey(pyBool(caseSensitive) ? get(item) : ignoreCase(get(item)));
      if (!seen.has(key)) {
        seen.add(key);
        out.push(item);
      }
    }
    return iterator(out);
  },
  upper: (v) => STR_METHODS["upper"]!(pyStr(v), [], null),
  wordcount: (v) => {
    // Counted one match at a time: no array of every word.
    const b = budget();
    const re = /[\p{L}\p{N}_]+/gu;
    const s = pyStr(v);
    b.scan(s.length);
    let n = 0;
    while (re.exec(s) !== null) {
      n++;
      b.step();
    }
    return n;
  },
  pprint: (v) => pyStr(v, true),
};

/** Aliases Jinja2 registers under a second name. */
export const FILTER_ALIASES: Readonly<Record<string, string>> = { d: "default", e: "escape" };
