/**
 * A flat record of a plain data value (what requests are made of: dicts, lists, strings, numbers,
 * booleans, None, PyFloat), so a `tojson` result (or a kept copy of a caller's tools, kept-tools.ts) can
 * be reused across renders without trusting that the caller left the value alone. Recording walks the
 * value once; checking walks it again and compares every key and leaf with `===` (a PyFloat by its
 * number, a tuple apart from a list), which costs a fraction of encoding it (no string is built, and an
 * unchanged string is the same string object, compared by pointer). Any change anywhere, an edited
 * leaf, an added or removed key, a replaced child, makes the check fail and the value is encoded afresh.
 */
import { PyFloat } from "./py-float.js";
import { arrayKind, isPlainDict, isTuple, iteratorKind } from "./values.js";

const LIST = Symbol("list");
const TUPLE = Symbol("tuple");
const DICT = Symbol("dict");
/** A PyFloat is recorded by its number (after this tag): a new PyFloat of the same value matches, an edited one does not. */
const FLOAT = Symbol("float");

/**
 * The most entries a record may have: a bigger value (millions of items a template built) is not worth
 * keeping across renders, and walking it would be uncharged work no clock looks at.
 */
const MAX_RECORD = 1 << 17;

/** The record of `value`, or undefined when it holds something that is not plain data (or is too big). */
export function recordValue(value: unknown): unknown[] | undefined {
  const out: unknown[] = [];
  return record(value, out) ? out : undefined;
}

function record(value: unknown, out: unknown[]): boolean {
  if (out.length > MAX_RECORD) return false;
  if (value === null || typeof value !== "object") {
    out.push(value);
    return typeof value !== "function" && typeof value !== "symbol";
  }
  if (value instanceof PyFloat) {
    out.push(FLOAT, value.value);
    return true;
  }
  if (Array.isArray(value)) {
    if (iteratorKind(value) !== undefined) return false;
    out.push(isTuple(value) ? TUPLE : LIST, value.length);
    for (let i = 0; i < value.length; i++) if (!record(value[i], out)) return false;
    return true;
  }
  if (!isPlainDict(value)) return false; // a template-made dict (PyDict) is never shared across renders
  const names = Object.keys(value);
  out.push(DICT, names.length);
  for (const name of names) {
    out.push(name);
    if (!record(value[name], out)) return false;
  }
  return true;
}

/** Whether `value` still matches its record exactly. */
export function matchesRecord(value: unknown, rec: readonly unknown[]): boolean {
  return check(value, rec, 0) === rec.length;
}

/**
 * Walks `value` against `rec` from `at`; the position after it, or -1 at the first difference. Leaves
 * are compared in the loops that meet them and each container is told apart with one test of its kind
 * (a plain dict by its prototype, a list or tuple by its tag): a caller's plain tools (kept-tools.ts)
 * are compared whole on every request, so this walk is the cost of recognising them.
 */
function check(value: unknown, rec: readonly unknown[], at: number): number {
  if (value === null || typeof value !== "object") {
    return rec[at] === value ? at + 1 : -1;
  }
  if (Array.isArray(value)) {
    const kind = arrayKind(value);
    // A list or a tuple; any other tagged array (a generator, a dict view) is never recorded.
    const tag = kind === undefined ? LIST : kind === "tuple" ? TUPLE : undefined;
    if (tag === undefined || rec[at] !== tag || rec[at + 1] !== value.length) return -1;
    let p = at + 2;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (item === null || typeof item !== "object") {
        if (rec[p] !== item) return -1;
        p++;
      } else if ((p = check(item, rec, p)) < 0) return -1;
    }
    return p;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) {
    // Not a plain dict: a PyFloat by its number, anything else (a template-made PyDict) never matches.
    return value instanceof PyFloat && rec[at] === FLOAT && rec[at + 1] === value.value ? at + 2 : -1;
  }
  if (rec[at] !== DICT) return -1;
  const dict = value as Record<string, unknown>;
  let p = at + 2;
  let count = 0;
  // A dict's prototype is Object.prototype or null (isDict), whose keys are not enumerable; should someone
  // add an enumerable one there, it shows up here as an extra key and the check fails: safe.
  for (const name in dict) {
    if (rec[p] !== name) return -1;
    const item = dict[name];
    if (item === null || typeof item !== "object") {
      if (rec[p + 1] !== item) return -1;
      p += 2;
    } else if ((p = check(item, rec, p + 1)) < 0) return -1;
    count++;
  }
  return count === rec[at + 1] ? p : -1;
}
