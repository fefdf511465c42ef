/**
 * JSON objects in the order their text wrote the keys. Python's json.loads keeps every key where the
 * text put it; a JS object enumerates integer-like keys ("0", "10": array indices) first, ascending,
 * whatever their position. A template that iterates a dict (`|items`, `for k in d`, `tojson`, printing
 * it) would then see another order than transformers does.
 *
 * An object read from JSON text that has such a key becomes a Proxy over the plain object, whose only
 * job is the key order: its ownKeys trap gives the text's order, so every enumeration (Object.keys,
 * for-in, JSON.stringify, spread, Object.values) sees Python's order, while reads, the prototype and
 * freezing go to the object itself (to the runtime it is still a plain dict). Keys added later go to
 * the end and deleted ones leave, as in a Python dict. Objects without such keys, nearly all, stay
 * plain and cost nothing; a copy the request layer makes of an ordered object keeps the order.
 */

/** The ordered proxies made here (copies must stay ordered). */
const ORDERED = new WeakSet<object>();

/** A key a JS object enumerates before the others: an array index, "0" to "4294967294" without leading zeros. */
export function isIndexKey(key: string): boolean {
  const first = key.charCodeAt(0);
  if (!(first >= 0x30 && first <= 0x39) || key.length > 10 || (first === 0x30 && key.length > 1)) return false;
  for (let i = 1; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (!(c >= 0x30 && c <= 0x39)) return false;
  }
  return Number(key) <= 4294967294;
}

/** `target` seen with its own keys in `order` (which must be exactly its own keys; kept up to date here). */
export function inKeyOrder<T extends object>(target: T, order: Array<string | symbol>): T {
  const proxy = new Proxy(target, {
    ownKeys: () => order.slice(),
    // Assignment to the proxy lands here too (ordinary [[Set]] defines on the receiver).
    defineProperty(t, key, descriptor) {
      const had = Object.prototype.hasOwnProperty.call(t, key);
      const ok = Reflect.defineProperty(t, key, descriptor);
      if (ok && !had) order.push(key);
      return ok;
    },
    deleteProperty(t, key) {
      const had = Object.prototype.hasOwnProperty.call(t, key);
      const ok = Reflect.deleteProperty(t, key);
      if (ok && had) order.splice(order.indexOf(key), 1);
      return ok;
    },
  });
  ORDERED.add(proxy);
  return proxy;
}

/** Whether `obj` carries a key order of its own (an object read from JSON with integer-like keys). */
export function hasKeyOrder(obj: object): boolean {
  return ORDERED.has(obj);
}

/** A shallow copy of a request object, in the same key order (a spread would put integer-like keys first). */
export function copyObject(obj: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...obj };
  return ORDERED.has(obj) ? inKeyOrder(copy, Object.keys(obj)) : copy;
}

/**
 * `{ ...obj, ...fields }` as Python's `{**obj, **fields}` orders it: obj's keys where they were (a key
 * given again keeps its place), new keys last; `drop` leaves keys out (a dict comprehension's filter).
 */
export function withFields(obj: Record<string, unknown>, fields: Record<string, unknown>, drop: readonly string[] = []): Record<string, unknown> {
  if (!ORDERED.has(obj)) {
    const copy = { ...obj, ...fields };
    for (const k of drop) delete copy[k];
    return copy;
  }
  const copy = copyObject(obj);
  for (const k of drop) delete copy[k];
  for (const k of Object.keys(fields)) copy[k] = fields[k];
  return copy;
}
