/**
 * Provenance without renderer support: before a request is rendered for token ids, every occurrence of
 * a protected token's text (by default the `special: true` added tokens: `<|im_start|>`, `<|eot_id|>`...;
 * see TokenizeOptions.protect) inside request data is replaced by a placeholder made of private-use
 * characters. Templates copy data through unchanged, so
 * after rendering, every control token text left in the prompt came from the template itself, and each
 * placeholder marks data text that must be tokenised as ordinary text. `restoreSpecialText` maps the
 * placeholders back.
 *
 * Placeholder for entry k of the table: ESC + two characters in U+E100..U+E4FF (k = 1024*hi + lo).
 * Entry 0 is ESC itself, so data that already contains ESC round-trips. The table is the tokenizer's
 * added tokens ordered by id, so the mapping is stateless: nothing but the tokenizer is needed to undo
 * it, whichever protection mode escaped the data.
 * Strings are escaped wherever they are, object keys included (a tool call's argument names are printed
 * by templates too); keys that spell no protected token are unchanged.
 */
import { hasKeyOrder, inKeyOrder } from "../jinja/key-order.js";
import { PyFloat } from "../jinja/py-float.js";
import { TextTrie } from "./trie.js";

const ESC = "\uE000";
const BASE = 0xe100;
const SPAN = 1024;
const PLACEHOLDER = /\uE000([\uE100-\uE4FF])([\uE100-\uE4FF])/g;
/** Length of one placeholder in UTF-16 code units. */
export const PLACEHOLDER_LENGTH = 3;
const MAX_ENTRIES = SPAN * SPAN;

export interface EscapeTable {
  /** Index -> text; index 0 is ESC. */
  readonly texts: readonly string[];
  /** Matches any entry, leftmost-longest, so `<|im_start|>` wins over a shorter token it starts with. */
  readonly trie: TextTrie;
  readonly index: ReadonlyMap<string, number>;
}

/**
 * The table over `texts` (a tokenizer's added tokens ordered by id): placeholders index into it, so
 * every table built from the same texts restores the same way. Only `protectedTexts` (default: all of
 * them) are escaped.
 */
export function escapeTable(texts: readonly string[], protectedTexts: readonly string[] = texts): EscapeTable {
  const all = [ESC, ...texts].slice(0, MAX_ENTRIES);
  const index = new Map<string, number>();
  all.forEach((t, i) => {
    if (!index.has(t)) index.set(t, i);
  });
  const escaped = [ESC, ...protectedTexts].filter((t) => index.has(t));
  return { texts: all, trie: new TextTrie(escaped), index };
}

function placeholder(k: number): string {
  return ESC + String.fromCharCode(BASE + Math.floor(k / SPAN), BASE + (k % SPAN));
}

export function escapeText(text: string, table: EscapeTable): string {
  return table.trie.replaceAll(text, (match) => placeholder(table.index.get(match)!));
}

/**
 * `value` with every string escaped: a copy of each container that holds a protected text somewhere, the
 * very same value where nothing changes. PyFloat and other class instances are kept as is. Keeping the
 * unchanged values (nearly all of a request) is what lets the render reuse what it keyed by identity
 * (tojson text of a shared tools list, schema checks), and costs no copy.
 */
export function escapeSpecialText<T>(value: T, table: EscapeTable): T {
  return escapeValue(value, table) as T;
}

/**
 * Deeply frozen containers (readSharedJson's shared subtrees) that hold no protected text, per table:
 * they cannot change, so the walk is not repeated. A WeakSet holds no value, only its entries, and
 * lives no longer than the containers (which the shared reader bounds).
 */
const CLEAN = new WeakMap<EscapeTable, WeakSet<object>>();

function escapeValue(value: unknown, table: EscapeTable): unknown {
  if (typeof value === "string") return escapeText(value, table);
  if (value === null || typeof value !== "object") return value;
  let clean = CLEAN.get(table);
  if (clean?.has(value)) return value;
  let out: unknown;
  if (Array.isArray(value)) out = escapeArray(value, table);
  else if (!(value instanceof PyFloat) && isPlainObject(value)) out = escapeObject(value as Record<string, unknown>, table);
  else return value;
  if (out === value && Object.isFrozen(value)) {
    if (clean === undefined) CLEAN.set(table, (clean = new WeakSet()));
    clean.add(value);
  }
  return out;
}

function escapeArray(value: readonly unknown[], table: EscapeTable): unknown {
  let copy: unknown[] | undefined;
  for (let i = 0; i < value.length; i++) {
    const v = value[i];
    const e = escapeValue(v, table);
    if (e !== v && copy === undefined) copy = value.slice(0, i);
    copy?.push(e);
  }
  return copy ?? value;
}

function escapeObject(value: Record<string, unknown>, table: EscapeTable): unknown {
  const entries = Object.entries(value);
  let changed = false;
  const keys: string[] = [];
  const values: unknown[] = [];
  for (const [k, v] of entries) {
    const key = escapeText(k, table);
    const e = escapeValue(v, table);
    if (key !== k || e !== v) changed = true;
    keys.push(key);
    values.push(e);
  }
  if (!changed) return value;
  const out: Record<string, unknown> = {};
  // Keys too: templates print argument and schema keys (tojson); only keys spelling a protected token change.
  // defineProperty: assigning a "__proto__" key would set the copy's prototype instead.
  keys.forEach((key, i) => Object.defineProperty(out, key, { value: values[i], enumerable: true, writable: true, configurable: true }));
  // An object read with integer-like keys keeps their order (placeholders never make a key integer-like).
  return hasKeyOrder(value) ? inKeyOrder(out, keys) : out;
}

/** Puts the original text back in place of every placeholder. */
export function restoreSpecialText(text: string, table: EscapeTable): string {
  if (!text.includes(ESC)) return text;
  return text.replace(PLACEHOLDER, (match, hi: string, lo: string) => table.texts[placeholderIndex(hi, lo)] ?? match);
}

function placeholderIndex(hi: string, lo: string): number {
  return (hi.charCodeAt(0) - BASE) * SPAN + (lo.charCodeAt(0) - BASE);
}

export interface Placeholder {
  /** Offset of the placeholder in the escaped text. */
  start: number;
  /** The data text it stands for. */
  text: string;
}

/** The placeholders of `text`, in order (what restoreSpecialText would put back, and where). */
export function placeholdersIn(text: string, table: EscapeTable): Placeholder[] {
  const out: Placeholder[] = [];
  if (!text.includes(ESC)) return out;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const restored = table.texts[placeholderIndex(m[1]!, m[2]!)];
    if (restored !== undefined) out.push({ start: m.index, text: restored });
  }
  return out;
}

/** Plain data objects (also null-prototype ones, as some JSON readers make): copied and escaped. */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Maps an offset in the escaped prompt to the restored prompt (placeholders expand to their text). */
export function offsetMapper(escaped: string, table: EscapeTable): (i: number) => number {
  const found = placeholdersIn(escaped, table);
  if (found.length === 0) return (i) => i;
  return (i) => {
    let shift = 0;
    for (const p of found) {
      if (i <= p.start) break;
      if (i < p.start + PLACEHOLDER_LENGTH) return p.start + shift; // inside a placeholder: its start
      shift += p.text.length - PLACEHOLDER_LENGTH;
    }
    return i + shift;
  };
}
