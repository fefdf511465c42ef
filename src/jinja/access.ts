/**
 * Attribute and item lookup with Jinja2's sandbox rules:
 * `a.b` tries the attribute (methods such as `d.items`) first, then the item `a['b']`;
 * `a[b]` tries the item first, then the attribute. Only own data properties of plain objects are
 * visible, dunder names are refused, and mutating methods give a SecurityError when used.
 */
import { checkKwargs, DICT_METHODS, LIST_METHODS, MUTATING } from "./methods.js";
import { STR_METHODS } from "./str-methods.js";
import { PyFloat } from "./py-float.js";
import { budget } from "./limits.js";
import {
  Callable,
  Markup,
  Namespace,
  Undefined,
  dictGet,
  isDict,
  isInt,
  isPlainDict,
  isTuple,
  iteratorKind,
  ownValue,
  PyDict,
  pyRepr,
  toNumber,
  tuple,
  typeName,
  JinjaError,
  unwrap,
  type Kwargs,
} from "./values.js";
import { LoopInfo } from "./loop.js";
import { memoFor } from "./attr-memo.js";
import { codePoints, hasSurrogates } from "./code-points.js";

function unsafe(obj: unknown, name: string): Undefined {
  return new Undefined(name, obj, `access to attribute ${pyRepr(name)} of ${pyRepr(typeName(obj))} object is unsafe.`, "SecurityError");
}

function bind<T>(type: string, self: T, name: string, fn: (self: T, args: unknown[], kwargs: Record<string, unknown> | null) => unknown): Callable {
  return new Callable(
    name,
    (args, kwargs) => {
      checkKwargs(type, name, kwargs);
      // Markup is a str to Python: a Markup argument is its text.
      return fn(self, args.some((a) => a instanceof Markup) ? args.map(unwrap) : args, kwargs);
    },
    "method",
  );
}

/** Python getattr(obj, name) as the sandbox sees it; `undefined` when there is no such attribute. */
function pyAttr(obj: unknown, name: string): unknown {
  if (name.startsWith("__") && name.endsWith("__")) return unsafe(obj, name);
  if (typeof obj === "string") {
    return Object.prototype.hasOwnProperty.call(STR_METHODS, name) ? bind("str", obj, name, STR_METHODS[name]!) : undefined;
  }
  if (Array.isArray(obj)) {
    const kind = isTuple(obj) ? "tuple" : "list";
    if (kind === "list" && MUTATING["list"]!.has(name)) return unsafe(obj, name);
    const m = Object.prototype.hasOwnProperty.call(LIST_METHODS, name) ? LIST_METHODS[name] : undefined;
    if (m === undefined || (kind === "tuple" && name === "copy")) return undefined;
    return bind(kind, obj, name, m);
  }
  if (obj instanceof LoopInfo) return obj.attr(name);
  if (obj instanceof Namespace) return ownValue(obj.attrs, name);
  if (isDict(obj)) {
    if (MUTATING["dict"]!.has(name)) return unsafe(obj, name);
    const m = Object.prototype.hasOwnProperty.call(DICT_METHODS, name) ? DICT_METHODS[name] : undefined;
    return m === undefined ? undefined : bind("dict", obj, name, m);
  }
  if (obj instanceof PyFloat || typeof obj === "number" || typeof obj === "bigint") {
    if (name === "real") return obj;
    if (name === "imag") return 0;
  }
  return undefined;
}

/** Python obj[key]; `undefined` when the lookup fails (missing key, index out of range, wrong type). */
function pyItem(obj: unknown, key: unknown): unknown {
  if (Array.isArray(obj)) {
    // Generators and dict views are not subscriptable (the sandbox turns that TypeError into Undefined).
    if (iteratorKind(obj) !== undefined) return undefined;
    if (!isInt(key) && typeof key !== "boolean") return undefined;
    let i = toNumber(key);
    if (i < 0) i += obj.length;
    return i >= 0 && i < obj.length ? obj[i] : undefined;
  }
  if (isDict(obj)) {
    try {
      return dictGet(obj, key);
    } catch {
      return undefined; // an unhashable key: a TypeError the sandbox's getitem swallows
    }
  }
  if (typeof obj === "string") {
    if (!isInt(key) && typeof key !== "boolean") return undefined;
    let i = toNumber(key);
    if (!hasSurrogates(obj)) {
      if (i < 0) i += obj.length;
      return i >= 0 && i < obj.length ? obj[i] : undefined;
    }
    const cps = codePoints(obj);
    if (i < 0) i += cps.length;
    return i >= 0 && i < cps.length ? cps[i] : undefined;
  }
  if (obj instanceof Namespace && typeof key === "string") return undefined;
  return undefined;
}

/** Names a dict answers as an attribute (its methods, allowed or not): the rest are item lookups. */
const DICT_ATTRS: ReadonlySet<string> = new Set([...Object.keys(DICT_METHODS), ...MUTATING["dict"]!]);

/** markupsafe.Markup's str methods return Markup (and lists of Markup) where str's return str. */
function markupMethod(m: Callable): Callable {
  const wrap = (v: unknown): unknown =>
    typeof v === "string" ? new Markup(v) : Array.isArray(v) && !isTuple(v) ? v.map(wrap) : isTuple(v) ? tuple(v.map(wrap)) : v;
  return new Callable(m.name, (args, kwargs) => wrap(m.fn(args, kwargs)), "method");
}

/** `obj.name` in a template. */
export function getAttr(obj: unknown, name: string): unknown {
  // The hot case, `message.role` on a request dict: with no method or dunder of that name, Jinja2's
  // getattr-then-getitem comes down to the item (the same answer as the general path below, sooner).
  if (isDict(obj) && !DICT_ATTRS.has(name) && !(name.startsWith("__") && name.endsWith("__"))) {
    const item = obj instanceof PyDict ? obj.get(name) : ownValue(obj, name);
    return item !== undefined ? item : new Undefined(name, obj);
  }
  if (obj instanceof Undefined) obj.fail();
  const target = obj instanceof Markup ? obj.text : obj;
  const attr = pyAttr(target, name);
  if (attr !== undefined) return obj instanceof Markup && attr instanceof Callable ? markupMethod(attr) : attr;
  const item = pyItem(target, name);
  if (item !== undefined) return item;
  return new Undefined(name, obj);
}

/**
 * `obj.name` for a name known when the template compiles: what a dict answers for it is decided once,
 * here, instead of on every access. For a name that is no dict method and no dunder (`message.role`),
 * a dict's item, `loop.index0` and `ns.name` are read directly; everything else goes through getAttr.
 * A request dict's item is kept in the template's memo for that name (attr-memo.ts) for the next read.
 */
export function attrReader(name: string): (obj: unknown) => unknown {
  if (DICT_ATTRS.has(name) || (name.startsWith("__") && name.endsWith("__"))) return (obj) => getAttr(obj, name);
  const memo = memoFor(name);
  return (obj) => {
    // First: a kept item also spares the tests below (only request dicts' items are kept).
    if (obj === memo.obj && memo.owner === budget()) return memo.value;
    if (obj instanceof PyDict) {
      const item = obj.get(name);
      return item !== undefined ? item : new Undefined(name, obj);
    }
    if (obj instanceof LoopInfo) {
      const attr = obj.attr(name);
      if (attr !== undefined) return attr;
    } else if (isPlainDict(obj)) {
      const item = ownValue(obj, name);
      if (item === undefined) return new Undefined(name, obj);
      memo.set(obj, item);
      return item;
    } else if (obj instanceof Namespace) {
      // Its attrs (no prototype) are only ever assigned to, so they hold data properties alone: what
      // ownValue would find, without a property descriptor (`ns.multi_step_tool`, once a message).
      const attr = obj.attrs[name];
      if (attr !== undefined) return attr;
    }
    return getAttr(obj, name);
  };
}

/**
 * `s.name(...)` for a name known when the template compiles, called on a str: what the bound method
 * getAttr makes would do when called, without making it. Null when str has no such method.
 */
export function strMethodCaller(name: string): ((s: string, args: unknown[], kwargs: Kwargs) => unknown) | null {
  if ((name.startsWith("__") && name.endsWith("__")) || !Object.prototype.hasOwnProperty.call(STR_METHODS, name)) return null;
  const method = STR_METHODS[name]!;
  return (s, args, kwargs) => {
    checkKwargs("str", name, kwargs);
    return method(s, args.some((a) => a instanceof Markup) ? args.map(unwrap) : args, kwargs);
  };
}

/** `obj[key]` in a template. */
export function getItem(obj: unknown, key: unknown): unknown {
  if (obj instanceof Undefined) obj.fail();
  const target = obj instanceof Markup ? obj.text : obj;
  if (key instanceof Markup) key = key.text;
  const item = pyItem(target, key);
  if (item !== undefined) return obj instanceof Markup && typeof item === "string" ? new Markup(item) : item;
  if (typeof key === "string") {
    const attr = pyAttr(target, key);
    if (attr !== undefined) return attr;
  }
  return new Undefined(key, obj);
}

function sliceIndex(v: unknown): number | null {
  if (v === null || v === undefined || v instanceof Undefined) return null;
  if (!isInt(v) && typeof v !== "boolean") {
    throw new JinjaError("TypeError", "slice indices must be integers or None or have an __index__ method");
  }
  return toNumber(v);
}

/** Python's slice.indices(n): the first index and the bound, for a step of `step`. */
function sliceBounds(n: number, start: number | null, stop: number | null, step: number): [number, number] {
  const clamp = (v: number | null, dflt: number, lo: number, hi: number): number => {
    if (v === null) return dflt;
    const i = v < 0 ? v + n : v;
    return i < lo ? lo : i > hi ? hi : i;
  };
  return step > 0 ? [clamp(start, 0, 0, n), clamp(stop, n, 0, n)] : [clamp(start, n - 1, -1, n - 1), clamp(stop, -1, -1, n - 1)];
}

/** Slicing a string with no astral characters: UTF-16 indices are code point indices, no copying to arrays. */
function sliceString(s: string, start: number | null, stop: number | null, step: number): string {
  const [a, b] = sliceBounds(s.length, start, stop, step);
  if (step === 1) return a < b ? s.slice(a, b) : "";
  // Collected, then joined once: adding one character at a time would make a rope node per character.
  const count = step > 0 ? Math.max(0, Math.ceil((b - a) / step)) : Math.max(0, Math.ceil((a - b) / -step));
  budget().items(count);
  const chars = new Array<string>(count);
  for (let k = 0, i = a; k < count; k++, i += step) chars[k] = s[i]!;
  return chars.join("");
}

/** Python's slice.indices + the selection: `x[start:stop:step]` on lists, tuples and strings. */
export function getSlice(obj: unknown, start: unknown, stop: unknown, step: unknown): unknown {
  if (obj instanceof Undefined) obj.fail();
  if (obj instanceof Markup) {
    const text = getSlice(obj.text, start, stop, step) as string;
    return new Markup(text);
  }
  if (isDict(obj)) throw new JinjaError("TypeError", "unhashable type: 'slice'");
  const s = sliceIndex(step) ?? 1;
  if (s === 0) throw new JinjaError("ValueError", "slice step cannot be zero");
  if (typeof obj === "string" && !hasSurrogates(obj)) return sliceString(obj, sliceIndex(start), sliceIndex(stop), s);
  const sliceable = typeof obj === "string" || (Array.isArray(obj) && iteratorKind(obj) === undefined);
  if (!sliceable) throw new JinjaError("TypeError", `'${typeName(obj)}' object is not subscriptable`);
  const items: readonly unknown[] = typeof obj === "string" ? codePoints(obj) : (obj as unknown[]);
  if (items === null) throw new JinjaError("TypeError", `'${typeName(obj)}' object is not subscriptable`);
  const [a, b] = sliceBounds(items.length, sliceIndex(start), sliceIndex(stop), s);
  budget().items(s > 0 ? Math.max(0, Math.ceil((b - a) / s)) : Math.max(0, Math.ceil((a - b) / -s)));
  const out: unknown[] = [];
  if (s === 1) return typeof obj === "string" ? items.slice(a, b).join("") : isTuple(obj) ? tuple(items.slice(a, b)) : items.slice(a, b);
  if (s > 0) for (let i = a; i < b; i += s) out.push(items[i]);
  else for (let i = a; i > b; i += s) out.push(items[i]);
  if (typeof obj === "string") return out.join("");
  return isTuple(obj) ? tuple(out) : out;
}
