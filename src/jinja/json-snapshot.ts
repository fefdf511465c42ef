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
  // DICT, then where its entries end (filled in below: check compares positions, not a key count).
  const at = out.length;
  out.push(DICT, 0);
  for (const name of Object.keys(value)) {
    out.push(name);
    if (!record(value[name], out)) return false;
  }
  out[at + 1] = out.length;
  return true;
}

/** Whether `value` still matches its record exactly. */
export function matchesRecord(value: unknown, rec: readonly unknown[]): boolean {
  const tag = rec[0];
  // A leaf is never a symbol: a symbol is a container's (or a PyFloat's) tag.
  if (typeof tag !== "symbol") return rec.length === 1 && tag === value;
  return check(value, rec, 0) === rec.length;
}

/**
 * Walks `value` against the container or PyFloat recorded at `at`; the position after it, or -1 at
 * the first difference. What the record holds next decides the test: a leaf (never a symbol) is
 * compared with `===` at once, whatever the value is (an object is never `===` a leaf), and only a
 * recorded container's tag makes it look at the value's kind, with one test (a plain dict by its
 * prototype, which an array's is not; a list or tuple by its tag). A caller's plain tools
 * (kept-tools.ts) are compared whole on every request, so this walk is the cost of recognising them:
 * testing each value's type before the record's cost a tenth of it.
 */
function check(value: unknown, rec: readonly unknown[], at: number): number {
  const tag = rec[at];
  if (tag === DICT) {
    if (value === null || typeof value !== "object") return -1;
    const proto = Object.getPrototypeOf(value) as unknown;
    // Not a plain dict: an array, a PyFloat, a template-made PyDict, any other object.
    if (proto !== Object.prototype && proto !== null) return -1;
    const dict = value as Record<string, unknown>;
    let p = at + 2;
    // A dict's prototype is Object.prototype or null (isDict), whose keys are not enumerable; should someone
    // add an enumerable one there, it shows up here as an extra key and the check fails: safe.
    for (const name in dict) {
      // Past the dict's end `rec[p]` is the next entry: a tag never equals a key, and a leaf that does
      // only moves `p` further past the end, which the last test sees (p only grows).
      if (rec[p] !== name) return -1;
      const leaf = rec[p + 1];
      if (typeof leaf !== "symbol") {
        if (leaf !== dict[name]) return -1;
        p += 2;
      } else if ((p = check(dict[name], rec, p + 1)) < 0) return -1;
    }
    return p === rec[at + 1] ? p : -1;
  }
  if (tag === FLOAT) return value instanceof PyFloat && rec[at + 1] === value.value ? at + 2 : -1;
  if (!Array.isArray(value)) return -1;
  const kind = arrayKind(value);
  // A list or a tuple; any other tagged array (a generator, a dict view) is never recorded.
  if ((kind === undefined ? LIST : kind === "tuple" ? TUPLE : undefined) !== tag || rec[at + 1] !== value.length) return -1;
  let p = at + 2;
  for (let i = 0; i < value.length; i++) {
    const leaf = rec[p];
    if (typeof leaf !== "symbol") {
      if (leaf !== value[i]) return -1;
      p++;
    } else if ((p = check(value[i], rec, p)) < 0) return -1;
  }
  return p;
}
