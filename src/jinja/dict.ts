/**
 * Python dicts. A dict a template makes (`{...}`, `dict()`, `.copy()`) is a PyDict: a Map keyed by a
 * hash key that follows Python equality (`1 == 1.0 == True`, `0` and `'0'` distinct, `(1, 2)` a key),
 * with every key kept in insertion order. Request data stays what callers pass, plain JS objects with
 * string keys (no copy on the hot path); lookups on them follow the same rules, so a non-string key
 * finds nothing there (`{'1': 'x'}[1]` is undefined in Python too).
 */
import { PyFloat } from "./py-float.js";
import { JinjaError, Markup, Undefined, isTuple, ownValue, tuple, typeName } from "./values.js";

export class PyDict {
  /** hash key -> [key as first inserted, value]. Python keeps the first key object of equal keys. */
  readonly entries = new Map<unknown, [unknown, unknown]>();

  get size(): number {
    return this.entries.size;
  }
  get(key: unknown): unknown {
    const e = this.entries.get(hashKey(key));
    return e === undefined ? undefined : e[1];
  }
  set(key: unknown, value: unknown): void {
    const h = hashKey(key);
    const e = this.entries.get(h);
    if (e !== undefined) e[1] = value;
    else this.entries.set(h, [key, value]);
  }
}

/** A dict as templates see it: a PyDict, or a plain object (request data) whose keys are strings. */
export type Dict = PyDict | Record<string, unknown>;

/** A plain JS object (prototype Object.prototype or null): request data. */
export function isPlainDict(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export function isDict(v: unknown): v is Dict {
  return v instanceof PyDict || isPlainDict(v);
}

export function newDict(): PyDict {
  return new PyDict();
}

const UNDEFINED_KEY = Symbol("undefined");
const MIN_SAFE = -9007199254740991n;
const MAX_SAFE = 9007199254740991n;
/** Identity numbers for objects inside tuple keys (Python hashes them by identity). */
const IDS = new WeakMap<object, number>();
let nextId = 0;

function unhashable(v: unknown): JinjaError {
  return new JinjaError("TypeError", `unhashable type: '${typeName(v)}'`);
}

/**
 * The Map key of a Python key: equal Python keys get the same JS value (SameValueZero). Numbers and
 * bools collapse onto numbers (0 and -0 are one key, as in Python); strings stay strings, except that a
 * leading NUL is escaped so no string can collide with a tuple's encoding.
 */
export function hashKey(k: unknown): unknown {
  switch (typeof k) {
    case "string":
      return k.charCodeAt(0) === 0 ? "\u0000s" + k : k;
    case "number":
      return k;
    case "boolean":
      return k ? 1 : 0;
    case "bigint":
      return k >= MIN_SAFE && k <= MAX_SAFE ? Number(k) : k;
  }
  if (k === null) return null;
  if (k instanceof PyFloat) return k.value;
  if (k instanceof Markup) return hashKey(k.text);
  if (k instanceof Undefined) return UNDEFINED_KEY;
  if (Array.isArray(k)) {
    if (isTuple(k)) return "\u0000t" + k.map(encodeItem).join("");
    if (!isTupleLikeHashable(k)) throw unhashable(k);
    return k; // a generator: hashed by identity in Python
  }
  if (isDict(k)) throw unhashable(k);
  return k; // namespaces, macros, loops: by identity
}

/** Lists and dict views are unhashable; generators and reverse iterators hash by identity. */
function isTupleLikeHashable(a: unknown[]): boolean {
  const name = typeName(a);
  return name !== "list" && !name.startsWith("dict_");
}

/** One tuple item, in an encoding that cannot be confused with another (length-prefixed strings). */
function encodeItem(item: unknown): string {
  const h = hashKey(item);
  switch (typeof h) {
    case "string":
      return `s${h.length}:${h}`;
    case "number":
      return `n${String(h)};`;
    case "bigint":
      return `b${h.toString()};`;
    case "symbol":
      return "u;";
  }
  if (h === null) return "z;";
  let id = IDS.get(h as object);
  if (id === undefined) IDS.set(h as object, (id = nextId++));
  return `o${id};`;
}

/** d[key] as Python finds it; undefined when the key is missing. */
export function dictGet(d: Dict, key: unknown): unknown {
  if (d instanceof PyDict) return d.get(key);
  if (typeof key === "string") return ownValue(d, key);
  if (key instanceof Markup) return ownValue(d, key.text);
  if (Array.isArray(key) && !isTuple(key)) throw unhashable(key);
  if (isDict(key)) throw unhashable(key);
  return undefined;
}

export function dictHas(d: Dict, key: unknown): boolean {
  return dictGet(d, key) !== undefined;
}

export function dictSize(d: Dict): number {
  if (d instanceof PyDict) return d.size;
  let n = 0;
  for (const _ in d) n++;
  return n;
}

/** A dict's keys as Python sees them, in insertion order. */
export function dictKeys(d: Dict): unknown[] {
  if (!(d instanceof PyDict)) return Object.keys(d);
  const out: unknown[] = [];
  for (const e of d.entries.values()) out.push(e[0]);
  return out;
}

export function dictValues(d: Dict): unknown[] {
  if (!(d instanceof PyDict)) return Object.keys(d).map((k) => d[k]);
  const out: unknown[] = [];
  for (const e of d.entries.values()) out.push(e[1]);
  return out;
}

/** `d.items()` / `d|items`: (key, value) tuples. */
export function dictItems(d: Dict): unknown[][] {
  if (!(d instanceof PyDict)) return Object.keys(d).map((k) => tuple([k, d[k]]));
  const out: unknown[][] = [];
  for (const e of d.entries.values()) out.push(tuple([e[0], e[1]]));
  return out;
}

/** dict(d): a PyDict with the same items in the same order. */
export function copyDict(d: Dict): PyDict {
  const out = new PyDict();
  if (d instanceof PyDict) for (const [h, e] of d.entries) out.entries.set(h, [e[0], e[1]]);
  else for (const k of Object.keys(d)) out.set(k, d[k]);
  return out;
}

/** The string-keyed items of a dict, for `**kwargs` and namespace(d): other keys are refused as Python does. */
export function stringItems(d: Dict, what: string): Array<[string, unknown]> {
  if (!(d instanceof PyDict)) return Object.keys(d).map((k) => [k, d[k]]);
  const out: Array<[string, unknown]> = [];
  for (const e of d.entries.values()) {
    const k = e[0] instanceof Markup ? e[0].text : e[0];
    if (typeof k !== "string") throw new JinjaError("TypeError", `${what} keywords must be strings`);
    out.push([k, e[1]]);
  }
  return out;
}
