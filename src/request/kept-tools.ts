/**
 * A library caller's `tools`, recognised by content. A caller that builds its request as new plain
 * objects (`JSON.parse` of each body, or the same object edited in place) sends the same tool list again
 * and again, but as objects no identity-keyed cache has met: every render encoded each tool with `tojson`
 * and stringified each schema to find its check, five times the cost of the rest of the render (issue 19).
 * Here such a list is compared with a deeply frozen copy kept from an earlier request, in one walk that
 * compares every key and leaf (json-snapshot.ts), and on a match the copy takes its place, so what is
 * keyed by identity further on (tojson text, each schema's check and validator) is reused, as it is for
 * readSharedJson's frozen values. Nothing the caller can change is trusted: the caller's objects are
 * never kept, only compared, and any edit is a miss.
 *
 * A list is copied the second time it is seen (a digest of it is noted the first time), so a caller
 * whose tools never repeat pays one walk per request and keeps nothing. Only plain JSON data is kept
 * (dicts, lists, strings, numbers, booleans, None, PyFloat; no key that starts with a digit, whose
 * order a JS object would change): anything else goes on as the caller passed it.
 */
import { freezeDeep, PyFloat } from "../jinja/index.js";
import { matchesRecord, recordValue } from "../jinja/json-snapshot.js";
import { isPlainDict, iteratorKind, isTuple } from "../jinja/values.js";

/** The largest list kept: values (keys, leaves and containers), characters of its strings, nesting. */
const MAX_VALUES = 1 << 16;
const MAX_CHARS = 1 << 20;
const MAX_DEPTH = 64;

/**
 * Bounded by estimated bytes: 8 a character of its strings (keys included) and 16 a value, which for
 * the bench's 21 tools (13.7 K characters of JSON, 11 K of strings, about 900 values) is 100 KB, against
 * 81 KB measured (heap after GC per list kept, with the tojson text and schema checks hung on the
 * frozen copy by identity, for 100 distinct lists each rendered three times). 16 MB in all, at most
 * 1024 lists of distinct tool names, each with up to 4 kept versions and 4 noted digests.
 */
const BYTES_PER_CHAR = 8;
const BYTES_PER_VALUE = 16;
const BYTES_PER_SLOT = 256;
const MAX_BYTES = 16 << 20;
const MAX_SLOTS = 1024;
const BUCKET = 4;

interface Kept {
  readonly value: unknown[];
  readonly record: readonly unknown[];
  readonly weight: number;
}

/** The lists met under one key (their tool names): the kept copies and the digests of those seen once. */
interface Slot {
  readonly kept: Kept[];
  readonly seen: number[];
  weight: number;
}

const slots = new Map<string, Slot>();
let totalWeight = 0;
/**
 * The slot used last (the Map's last entry, so touching it again changes nothing), or undefined. A
 * caller that sends one tool list over and over is recognised by comparing with its versions alone:
 * no key of names built, no lookup, no reordering.
 */
let recent: Slot | undefined;

/**
 * `tools` itself, or the deeply frozen copy kept for a list equal to it. An array that is frozen
 * already (readSharedJson's) is shared as it is and passes through untouched.
 */
export function keptTools(tools: unknown[]): unknown[] {
  if (tools.length === 0 || Object.isFrozen(tools)) return tools;
  // A match is equal in every key and leaf, so its names are that slot's key too.
  if (recent !== undefined) for (const kept of recent.kept) if (matchesRecord(tools, kept.record)) return kept.value;
  const key = namesKey(tools);
  if (key === undefined) return tools;
  const slot = slots.get(key);
  if (slot !== undefined && slot !== recent) {
    for (const kept of slot.kept) {
      if (matchesRecord(tools, kept.record)) {
        touch(key, slot);
        return kept.value;
      }
    }
  }
  const digest = survey(tools);
  if (digest === undefined) return tools;
  if (slot === undefined) {
    add(key, { kept: [], seen: [digest.hash], weight: BYTES_PER_SLOT + 2 * key.length });
    return tools;
  }
  const at = slot.seen.indexOf(digest.hash);
  if (at < 0) {
    if (slot.seen.length >= BUCKET) slot.seen.shift();
    slot.seen.push(digest.hash);
    return tools;
  }
  // Seen before (by its digest): keep a copy from now on.
  slot.seen.splice(at, 1);
  const value = freezeDeep(copyData(tools) as unknown[]);
  const record = recordValue(value);
  if (record === undefined) return tools;
  const kept: Kept = { value, record, weight: digest.chars * BYTES_PER_CHAR + digest.values * BYTES_PER_VALUE };
  if (slot.kept.length >= BUCKET) {
    const dropped = slot.kept.shift()!.weight;
    slot.weight -= dropped;
    totalWeight -= dropped;
  }
  slot.kept.push(kept);
  slot.weight += kept.weight;
  totalWeight += kept.weight;
  touch(key, slot);
  evict();
  return value;
}

/** The kept lists and their estimated bytes (for tests and the memory bench). */
export function keptToolsSize(): { slots: number; weight: number } {
  return { slots: slots.size, weight: totalWeight };
}

/** The tool names in order, each ended by a NUL; undefined when a tool has no string name (normalizeTools decides). */
function namesKey(tools: readonly unknown[]): string | undefined {
  let key = "";
  for (const tool of tools) {
    if (tool === null || typeof tool !== "object") return undefined;
    const t = tool as Record<string, unknown>;
    const def = t.function !== null && typeof t.function === "object" ? (t.function as Record<string, unknown>) : t;
    if (typeof def.name !== "string") return undefined;
    key += def.name + "\u0000";
  }
  return key;
}

function add(key: string, slot: Slot): void {
  slots.set(key, slot);
  recent = slot;
  totalWeight += slot.weight;
  evict();
}

/** Most recently used last: the Map's order is the eviction order. */
function touch(key: string, slot: Slot): void {
  slots.delete(key);
  slots.set(key, slot);
  recent = slot;
}

function evict(): void {
  while (slots.size > 0 && (slots.size > MAX_SLOTS || totalWeight > MAX_BYTES)) {
    const [oldest, slot] = slots.entries().next().value as [string, Slot];
    slots.delete(oldest);
    totalWeight -= slot.weight;
    if (slot === recent) recent = undefined;
  }
}

interface Digest {
  hash: number;
  values: number;
  chars: number;
}

/**
 * A digest of a keepable list (undefined when it holds anything else, or is too big): its shape, every
 * key and number, each string's length and ends. Two lists with one digest are still compared in full
 * before a copy is used; a collision only costs a copy.
 */
function survey(tools: unknown[]): Digest | undefined {
  const d: Digest = { hash: 0x811c9dc5, values: 0, chars: 0 };
  return surveyValue(tools, d, 0) ? d : undefined;
}

const mix = (h: number, x: number): number => Math.imul(h ^ x, 0x01000193);

/**
 * A string's length and its first and last 16 characters: where versions of a list differ (a counter,
 * a date, an edited sentence) is most often near an end. A middle edit collides, which costs a copy.
 */
function mixString(d: Digest, s: string): void {
  const n = s.length;
  d.chars += n;
  let h = mix(d.hash, n);
  if (n <= 32) {
    for (let i = 0; i < n; i++) h = mix(h, s.charCodeAt(i));
  } else {
    for (let i = 0; i < 16; i++) h = mix(mix(h, s.charCodeAt(i)), s.charCodeAt(n - 1 - i));
  }
  d.hash = h;
}

function surveyValue(v: unknown, d: Digest, depth: number): boolean {
  if (++d.values > MAX_VALUES || d.chars > MAX_CHARS) return false;
  switch (typeof v) {
    case "string":
      mixString(d, v);
      return true;
    case "number":
      d.hash = mix(mix(d.hash, 3), v | 0);
      return true;
    case "boolean":
      d.hash = mix(d.hash, v ? 5 : 6);
      return true;
    case "object":
      break;
    default:
      return false; // undefined, bigint, functions, symbols: left to the caller's own objects
  }
  if (v === null) {
    d.hash = mix(d.hash, 7);
    return true;
  }
  if (v instanceof PyFloat) {
    d.hash = mix(mix(d.hash, 8), v.value | 0);
    return true;
  }
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(v)) {
    if (isTuple(v) || iteratorKind(v) !== undefined) return false;
    d.hash = mix(mix(d.hash, 9), v.length);
    for (let i = 0; i < v.length; i++) if (!surveyValue(v[i], d, depth + 1)) return false;
    return true;
  }
  if (!isPlainDict(v)) return false;
  d.hash = mix(d.hash, 10);
  for (const name in v) {
    const c = name.charCodeAt(0);
    if (c >= 0x30 && c <= 0x39) return false; // a JS object would enumerate it first
    if (name === "__proto__") return false; // a copy's assignment would set the prototype instead
    mixString(d, name);
    if (!surveyValue(v[name], d, depth + 1)) return false;
  }
  return true;
}

/** A copy of data surveyValue accepted: new containers (keys in the same order), new PyFloats, the same strings. */
function copyData(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof PyFloat) return new PyFloat(v.value);
  if (Array.isArray(v)) return v.map(copyData);
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(v)) out[name] = copyData((v as Record<string, unknown>)[name]);
  return out;
}
