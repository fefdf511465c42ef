/**
 * The Python value model of the runtime. Template values are plain JS values with these meanings:
 * null = None, boolean = bool, integral number or bigint = int, non-integral number or PyFloat = float,
 * string = str, array = list (or tuple / generator / dict view when tagged with KIND), plain object = dict, plus the classes
 * below (Undefined, Namespace, Callable, and PyObjects such as loop.ts's LoopInfo). Everything here follows
 * CPython/Jinja2 behaviour.
 */
import { PyDict, dictGet, dictItems, dictKeys, dictSize, isDict } from "./dict.js";
import { budget } from "./limits.js";
import { PyFloat } from "./py-float.js";
import { anyMatch, replaceEach } from "./text-scan.js";
import { compareStrings, codePoints, strLength } from "./code-points.js";

export { PyDict, copyDict, dictGet, dictHas, dictItems, dictKeys, dictSize, dictValues, isDict, isPlainDict, newDict, type Dict } from "./dict.js";

/** Python-level errors raised while rendering (TypeError, UndefinedError, SecurityError...). */
export class JinjaError extends Error {
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
    this.name = pyType;
  }
}

const MISSING: unique symbol = Symbol("missing");


/** Jinja2's default Undefined: prints "", is falsy and empty, raises on attribute access, calls, math. */
export class Undefined {
  constructor(
    readonly name: unknown,
    readonly obj: unknown = MISSING,
    readonly hint?: string,
    readonly pyType: string = "UndefinedError",
  ) {}
  /** jinja2.runtime.Undefined._undefined_message */
  message(): string {
    if (this.hint !== undefined) return this.hint;
    if (this.obj === MISSING) return `${pyRepr(this.name)} is undefined`;
    if (typeof this.name !== "string") return `${objectTypeRepr(this.obj)} has no element ${pyRepr(this.name)}`;
    return `${pyRepr(objectTypeRepr(this.obj))} has no attribute ${pyRepr(this.name)}`;
  }
  fail(): never {
    throw new JinjaError(this.pyType, this.message());
  }
}

/** Jinja2's `namespace()` object: the only thing `{% set ns.attr = ... %}` may assign to. */
export class Namespace {
  readonly attrs: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
}

export type Kwargs = Record<string, unknown> | null;
/** Calling convention shared by globals, macros and bound methods. */
export type CallFn = (args: unknown[], kwargs: Kwargs) => unknown;

/**
 * A runtime object defined in a module of its own (LoopInfo), which names its Python type and prints
 * itself, so that this module need not import it.
 */
export abstract class PyObject {
  abstract readonly pyType: string;
  abstract repr(): string;
}

export class Callable {
  constructor(
    readonly name: string,
    readonly fn: CallFn,
    readonly kind: "function" | "macro" | "method" = "function",
  ) {}
}

/**
 * markupsafe.Markup: what `|safe` and `|escape` return. It matters for `+`, where Jinja2 HTML-escapes
 * the plain-string side (`"x"|safe + '"'` gives `x&#34;`). Everywhere else it behaves as its text.
 */
export class Markup {
  constructor(readonly text: string) {}
}
/** The plain value behind a Markup (anything else is returned as is). */
export function unwrap(v: unknown): unknown {
  return v instanceof Markup ? v.text : v;
}
/** markupsafe.escape */
export function escapeHtml(v: unknown): Markup {
  if (v instanceof Markup) return v;
  const s = pyStr(v);
  if (!/[&<>"']/.test(s)) return new Markup(s);
  // Five native passes instead of a callback per character (at most 6x the size, then checked).
  const b = budget();
  b.scan(s.length * 5);
  if (s.length > 4096) {
    // Count the escapes first: a result over the limit is refused before it is built, and many
    // escapes take a stepped loop (V8's replaceAll spends 0.3-0.7 µs a match in one uninterruptible call).
    let size = s.length;
    let escapes = 0;
    for (let i = 0; i < s.length; i++) {
      if ((i & 0xfffff) === 0) b.scan(0x100000);
      const c = s.charCodeAt(i);
      if (c === 0x26 || c === 0x22 || c === 0x27) (size += 4), escapes++;
      else if (c === 0x3c || c === 0x3e) (size += 3), escapes++;
    }
    b.stringLength(size);
    if (escapes > 4096) return new Markup(replaceEach(s, /[&<>"']/g, (m) => HTML_ESCAPES[m[0]]!));
  }
  const out = s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&#34;").replaceAll("'", "&#39;");
  if (s.length <= 4096) b.stringLength(out.length);
  return new Markup(out);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;" };

/**
 * Arrays the runtime creates can carry a Python type other than list under this symbol: "tuple",
 * "generator", "list_reverseiterator", "dict_items"... A symbol property is invisible to templates and
 * to JSON, and reading it is a cheap property load (a WeakMap lookup was a hot spot in tojson).
 */
const KIND: unique symbol = Symbol("chatwire.kind");
type Tagged = { [KIND]?: string };
export function arrayKind(v: unknown[]): string | undefined {
  return (v as Tagged)[KIND];
}
export function tuple<T extends unknown[]>(items: T): T {
  (items as Tagged)[KIND] = "tuple";
  return items;
}
export function isTuple(v: unknown): v is unknown[] {
  return Array.isArray(v) && arrayKind(v) === "tuple";
}

/**
 * Jinja2 filters such as map, select and items return generators, which print as `<generator ...>`, are
 * always truthy, have no len() and are not JSON serializable. We keep them as arrays, tagged here.
 */
/** The kind a generator takes once iterated: still a generator to Python, but empty. */
const EXHAUSTED = "generator\u0000exhausted";

export function iterator<T extends unknown[]>(items: T, kind = "generator"): T {
  (items as Tagged)[KIND] = kind;
  return items;
}
/** The iterator/view type of an array the runtime made, or undefined for lists and tuples. */
export function iteratorKind(v: unknown): string | undefined {
  if (!Array.isArray(v)) return undefined;
  const kind = arrayKind(v);
  return kind === "tuple" ? undefined : kind === EXHAUSTED ? "generator" : kind;
}
/** dict views (`d.items()`, `d.keys()`, `d.values()`) have a len() and print their items, unlike generators. */
function isView(kind: string | undefined): boolean {
  return kind !== undefined && kind.startsWith("dict_");
}

/** A fresh string-keyed object for keyword arguments (never a template-visible dict by itself). */
export function newKwargs(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** An own data property of a plain object: never a prototype member, never a getter (which could run code). */
export function ownValue(obj: Record<string, unknown>, key: string): unknown {
  const d = Object.getOwnPropertyDescriptor(obj, key);
  return d === undefined || d.get !== undefined ? undefined : d.value;
}

export function isFloat(v: unknown): boolean {
  return v instanceof PyFloat || (typeof v === "number" && !Number.isInteger(v));
}
export function isInt(v: unknown): boolean {
  return (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint";
}
/** int, float or bool (Python's bool is an int). */
export function isNumeric(v: unknown): boolean {
  return typeof v === "number" || typeof v === "bigint" || typeof v === "boolean" || v instanceof PyFloat;
}
export function toNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (v instanceof PyFloat) return v.value;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return Number(v);
  return NaN;
}
/** A float result: keep integral values marked so they print as `2.0`. */
export function floatValue(x: number): number | PyFloat {
  return Number.isInteger(x) ? new PyFloat(x) : x;
}
/** An int result: a bigint outside the safe range, a number inside it. */
export function intValue(x: bigint): number | bigint {
  return x >= -9007199254740991n && x <= 9007199254740991n ? Number(x) : x;
}

export function typeName(v: unknown): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "string":
      return "str";
    case "bigint":
      return "int";
    case "number":
      return Number.isInteger(v) ? "int" : "float";
    case "undefined":
      return "Undefined";
  }
  if (v instanceof PyFloat) return "float";
  if (v instanceof Markup) return "Markup";
  if (Array.isArray(v)) return arrayKind(v) ?? "list";
  if (v instanceof Undefined) return "Undefined";
  if (v instanceof Namespace) return "Namespace";
  if (v instanceof Callable) return v.kind === "macro" ? "Macro" : v.kind === "method" ? "builtin_function_or_method" : "function";
  if (v instanceof PyObject) return v.pyType;
  if (isDict(v)) return "dict";
  return "object";
}

/** jinja2.utils.object_type_repr */
export function objectTypeRepr(v: unknown): string {
  if (v === null) return "None";
  // Types outside builtins are named with their module, as type(x).__module__ gives it.
  const qualified: Record<string, string> = {
    Namespace: "jinja2.utils.Namespace",
    LoopContext: "jinja2.runtime.LoopContext",
    Undefined: "jinja2.runtime.Undefined",
    Macro: "jinja2.runtime.Macro",
    Markup: "markupsafe.Markup",
  };
  const name = typeName(v);
  return `${qualified[name] ?? name} object`;
}

export function pyBool(v: unknown): boolean {
  // A comparison's or a test's result, what most `if`s look at: answered first.
  if (typeof v === "boolean") return v;
  if (v === null || v === undefined || v === false || v === 0 || v === "" || v === 0n) return false;
  if (v === true || typeof v === "string") return true;
  if (typeof v === "number") return !Number.isNaN(v);
  if (Array.isArray(v)) return v.length > 0 || (iteratorKind(v) !== undefined && !isView(iteratorKind(v)));
  if (v instanceof Undefined) return false;
  if (v instanceof PyFloat) return v.value !== 0;
  if (v instanceof Markup) return v.text !== "";
  if (v instanceof PyDict) return v.size > 0;
  if (isDict(v)) {
    for (const _ in v) return true;
    return false;
  }
  return true;
}

export function pyEq(a: unknown, b: unknown): boolean {
  if (typeof a === "string" && typeof b === "string") return a === b; // `message.role == 'user'`, the common case
  if (a instanceof Markup) a = a.text;
  if (b instanceof Markup) b = b.text;
  if (a === b) return typeof a !== "number" || !Number.isNaN(a);
  if (typeof a === "string" || typeof b === "string") return false;
  if (isNumeric(a) && isNumeric(b)) {
    if (typeof a === "bigint" || typeof b === "bigint") {
      return isInt(a) && isInt(b) ? BigInt(a as number) === BigInt(b as number) : toNumber(a) === toNumber(b);
    }
    return toNumber(a) === toNumber(b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length || isTuple(a) !== isTuple(b)) return false;
    for (let i = 0; i < a.length; i++) if (!pyEq(a[i], b[i])) return false;
    return true;
  }
  if (isDict(a) && isDict(b)) {
    if (dictSize(a) !== dictSize(b)) return false;
    for (const [k, v] of dictItems(a)) {
      const w = dictGet(b, k);
      if (w === undefined || !pyEq(v, w)) return false;
    }
    return true;
  }
  if (a instanceof Undefined && b instanceof Undefined) return true;
  return false;
}

/** Python's `<` ordering: numbers, strings by code point, lists/tuples lexicographically. */
export function pyCompare(a: unknown, b: unknown, op = "<"): number {
  if (a instanceof Markup) a = a.text;
  if (b instanceof Markup) b = b.text;
  if (isNumeric(a) && isNumeric(b)) {
    if (typeof a === "bigint" || typeof b === "bigint") {
      if (isInt(a) && isInt(b)) {
        const x = BigInt(a as number);
        const y = BigInt(b as number);
        return x < y ? -1 : x > y ? 1 : 0;
      }
    }
    const x = toNumber(a);
    const y = toNumber(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === "string" && typeof b === "string") return compareStrings(a, b);
  if (Array.isArray(a) && Array.isArray(b) && isTuple(a) === isTuple(b)) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (!pyEq(a[i], b[i])) return pyCompare(a[i], b[i], op);
    }
    return a.length - b.length;
  }
  if (a instanceof Undefined) a.fail();
  if (b instanceof Undefined) b.fail();
  throw new JinjaError("TypeError", `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

/** Python's len(). */
export function pyLen(v: unknown): number {
  if (typeof v === "string") return strLength(v);
  if (v instanceof Markup) return strLength(v.text);
  if (Array.isArray(v) && (iteratorKind(v) === undefined || isView(iteratorKind(v)))) return v.length;
  if (isDict(v)) return dictSize(v);
  if (v instanceof Undefined) return 0;
  throw new JinjaError("TypeError", `object of type '${typeName(v)}' has no len()`);
}

/** What `for x in v` iterates: list items, dict keys, string code points; Undefined is empty. */
export function pyIter(v: unknown): readonly unknown[] {
  if (Array.isArray(v)) {
    const kind = arrayKind(v);
    if (kind === undefined || kind === "tuple" || isView(kind)) return v;
    // A generator (map, select, items...) can be iterated once in Python: a second loop sees nothing.
    if (kind === EXHAUSTED) return [];
    (v as Tagged)[KIND] = EXHAUSTED;
    return v;
  }
  if (typeof v === "string" || v instanceof Markup) {
    const s = typeof v === "string" ? v : v.text;
    budget().steps_(s.length); // one step per character, before materialising them
    return codePoints(s);
  }
  if (isDict(v)) return dictKeys(v);
  if (v instanceof Undefined) return [];
  throw new JinjaError("TypeError", `'${typeName(v)}' object is not iterable`);
}

/** Python float repr: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function floatRepr(x: number): string {
  // JS and Python pick the same digits (the shortest that read back as x); from 1e-4 up to 1e16 both
  // write them positionally (JS up to 1e21), so only an integral value differs: Python adds `.0`.
  const size = Math.abs(x);
  if (size >= 1e-4 && size < 1e16) return Number.isInteger(x) ? String(x) + ".0" : String(x);
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mantissa, expText] = x.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  let body: string;
  if (exp >= -4 && exp < 16) {
    if (exp < 0) body = "0." + "0".repeat(-exp - 1) + digits;
    else if (digits.length <= exp + 1) body = digits + "0".repeat(exp + 1 - digits.length) + ".0";
    else body = digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
  } else {
    const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    body = `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return negative ? "-" + body : body;
}

/** Python int/float str(). */
/** Python 3.11's sys.int_info.default_max_str_digits: str() of a longer int raises ValueError. */
const MAX_STR_DIGITS = 4300;
function bigStr(v: bigint): string {
  // 4300 digits is about 14284 bits; above ~14300 bits the answer is known without the (quadratic) conversion.
  const hexDigits = (v < 0n ? -v : v).toString(16).length;
  const text = hexDigits * 4 - 3 > 14300 ? null : v.toString();
  if (text === null || text.length - (v < 0n ? 1 : 0) > MAX_STR_DIGITS) {
    throw new JinjaError(
      "ValueError",
      `Exceeds the limit (${MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  return text;
}

export function numberStr(v: number | bigint | PyFloat): string {
  if (typeof v === "bigint") return bigStr(v);
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (Number.isInteger(v)) return Number.isSafeInteger(v) ? String(v) : BigInt(v).toString();
  return floatRepr(v);
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\\]/u;
const NON_PRINTABLE_G = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\\]/gu;

function reprEscape(ch: string): string {
  if (ch === " ") return ch;
  if (ch === "\\") return "\\\\";
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  if (ch === "\t") return "\\t";
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x100) return "\\x" + code.toString(16).padStart(2, "0");
  if (code < 0x10000) return "\\u" + code.toString(16).padStart(4, "0");
  return "\\U" + code.toString(16).padStart(8, "0");
}

/** Python repr(str): quote choice and escapes as CPython does them. */
export function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let body = s;
  if (anyMatch(s, NON_PRINTABLE)) {
    // A step per escaped character, and the growing size is watched.
    const b = budget();
    let size = s.length;
    body = replaceEach(s, NON_PRINTABLE_G, (m) => {
      const ch = m[0];
      const rep = reprEscape(ch);
      size += rep.length - ch.length;
      b.length(size);
      return rep;
    });
    b.stringLength(size);
  }
  if (quote === "'" && body.includes("'")) body = body.replace(/'/g, "\\'");
  return quote + body + quote;
}

/** The reprs of a list's items, stopping as soon as their total passes the string limit. */
function reprs(items: readonly unknown[]): string[] {
  const b = budget();
  let size = 0;
  return items.map((x) => {
    b.step();
    const r = pyRepr(x);
    b.length((size += r.length + 2));
    return r;
  });
}

/** Nanoseconds per part of a native join, at worst (measured 40-150 on a busy machine). */
const NS_PER_JOINED_PART = 150;

/** The items of a container's repr joined with ", ", charged as the string it builds. */
function joinRepr(parts: string[]): string {
  let n = 2 * parts.length;
  for (const p of parts) n += p.length;
  const b = budget();
  b.stringLength(n);
  b.native(parts.length, NS_PER_JOINED_PART);
  return parts.join(", ");
}

/** Python repr(). */
export function pyRepr(v: unknown): string {
  if (typeof v === "string") return strRepr(v);
  return pyStr(v, true);
}

/** Python str(), which is what `{{ }}` prints. */
export function pyStr(v: unknown, asRepr = false): string {
  switch (typeof v) {
    case "string":
      return asRepr ? strRepr(v) : v;
    case "number":
    case "bigint":
      return numberStr(v);
    case "boolean":
      return v ? "True" : "False";
    case "undefined":
      return asRepr ? "Undefined" : "";
  }
  if (v === null) return "None";
  if (v instanceof PyFloat) return floatRepr(v.value);
  if (v instanceof Markup) return asRepr ? `Markup(${strRepr(v.text)})` : v.text;
  if (Array.isArray(v)) {
    const kind = iteratorKind(v);
    if (kind !== undefined && !isView(kind)) return `<${kind} object at 0x0>`;
    const inner = joinRepr(reprs(v));
    if (isView(kind)) return `${kind}([${inner}])`;
    if (isTuple(v)) return v.length === 1 ? `(${inner},)` : `(${inner})`;
    return `[${inner}]`;
  }
  if (v instanceof Undefined) return asRepr ? "Undefined" : "";
  if (isDict(v)) {
    const parts: string[] = [];
    for (const [k, x] of dictItems(v)) parts.push(`${pyRepr(k)}: ${pyRepr(x)}`);
    return `{${joinRepr(parts)}}`;
  }
  if (v instanceof Namespace) return `<Namespace ${pyStr(v.attrs)}>`;
  if (v instanceof Callable) return v.kind === "macro" ? `<Macro ${strRepr(v.name)}>` : `<built-in method ${v.name}>`;
  if (v instanceof PyObject) return v.repr();
  return "<object>";
}
