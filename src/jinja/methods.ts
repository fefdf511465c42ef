/**
 * The Python list and dict methods templates call (`d.items()`, `d.get(k)`, `l.index(x)`), and the rules
 * shared with the str methods (str-methods.ts): which methods mutate (the immutable sandbox refuses
 * them with a SecurityError) and which take keyword arguments.
 */
import { budget } from "./limits.js";
import { JinjaError, copyDict, dictGet, dictItems, dictKeys, dictValues, iterator, pyEq, pyRepr, type Dict, type Kwargs } from "./values.js";

/** jinja2.sandbox._mutable_spec, for the types we have. */
export const MUTATING: Readonly<Record<string, ReadonlySet<string>>> = {
  list: new Set(["append", "clear", "pop", "reverse", "insert", "sort", "extend", "remove"]),
  dict: new Set(["clear", "pop", "popitem", "setdefault", "update"]),
};

export const LIST_METHODS: Readonly<Record<string, (l: unknown[], args: unknown[], kwargs: Kwargs) => unknown>> = {
  index: (l, a) => {
    budget().steps_(l.length);
    const i = l.findIndex((x) => pyEq(x, a[0]));
    if (i < 0) throw new JinjaError("ValueError", `${pyRepr(a[0])} is not in list`);
    return i;
  },
  count: (l, a) => {
    budget().steps_(l.length);
    let n = 0;
    for (const x of l) if (pyEq(x, a[0])) n++;
    return n;
  },
  copy: (l) => {
    budget().items(l.length);
    return l.slice();
  },
};

function charged<T extends unknown[]>(items: T): T {
  budget().items(items.length);
  return items;
}

export const DICT_METHODS: Readonly<Record<string, (d: Dict, args: unknown[], kwargs: Kwargs) => unknown>> = {
  items: (d) => iterator(charged(dictItems(d)), "dict_items"),
  keys: (d) => iterator(charged(dictKeys(d)), "dict_keys"),
  values: (d) => iterator(charged(dictValues(d)), "dict_values"),
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
