/**
 * readJson for request bodies that repeat themselves. An agent loop, or any client of a server, sends
 * the same `tools` array and the same history again on every turn, each time as new text. Subtrees whose
 * source text was read before come back as the very same deeply frozen values, so everything keyed by
 * identity further on (tojson text, parsed arguments, probe answers) is reused for new requests too:
 * reuse by content, where the text itself is the key, so nothing a caller can change is trusted.
 *
 * The root value is always new and not frozen (a caller may add fields to a body); every container
 * below it may be shared and is deeply frozen. Values are exactly readJson's.
 */
import { freezeDeep } from "../jinja/index.js";
import { MAX_DEPTH, Reader, readJson, stringEnd } from "./read-json.js";

/**
 * The largest subtree kept, in characters: a bigger one (a huge tool result) is read afresh, and its
 * own children are shared. A hit costs one comparison at memory speed, far less than reading the text,
 * so whole tool lists and histories are worth keeping. Subtrees shorter than MIN_SHARED are not worth
 * an entry: reading them costs less than looking them up, and their parent is shared anyway.
 */
const MAX_SHARED = 1 << 18;
const MIN_SHARED = 48;

/** Characters of source text the cache may keep in all (the values it keeps are a few times that), and entries. */
const MAX_KEPT = 8 << 20;
const MAX_ENTRIES = 1 << 16;

/**
 * Subtrees are looked up by a fingerprint of their first PREFIX characters (all of a shorter one) and
 * confirmed by comparing the whole text, which V8 does at memory speed. The fingerprint needs no more
 * than the subtree's start, so a subtree seen before is found without reading, or even scanning, the
 * rest of it: a repeated 20 KB tool list costs a 256-character hash and one comparison. Distinct
 * subtrees with one fingerprint (a history that grew keeps its first characters) share a bucket of a
 * few entries (the oldest leaves a full bucket), so a collision costs a comparison, never a wrong value.
 */
const BUCKET = 4;
const PREFIX = 256;

interface Kept {
  readonly key: number;
  readonly text: string;
  readonly value: unknown;
  /** How deeply the subtree nests (1 for a container of scalars): a hit must not pass MAX_DEPTH either. */
  readonly height: number;
  /** Out of its bucket already (pushed out by a newer one of the same fingerprint). */
  gone: boolean;
}

const kept = new Map<number, Kept[]>();
/**
 * Every entry in the order it was kept, oldest at `oldest`: the cache forgets the oldest first. A queue,
 * not the Map's own order: finding a Map's first entry walks past every deleted one, which made keeping
 * a subtree cost more than reading it once the cache was full.
 */
let order: Kept[] = [];
let oldest = 0;
let keptChars = 0;
let keptEntries = 0;

/** The fingerprint of the `length` characters at `start` (the subtree's first PREFIX, or all of it). */
function fingerprint(text: string, start: number, length: number): number {
  let h = length;
  for (let i = start, end = start + length; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/**
 * The length of the container opening at `start` when it closes within PREFIX characters, else -1 (also
 * for text that is not JSON: the lookup then fails, and the reader reports the error).
 */
function shortLength(text: string, start: number): number {
  const limit = Math.min(text.length, start + PREFIX);
  let depth = 0;
  for (let i = start; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1 - start;
  }
  return -1;
}

function lookup(key: number, text: string, start: number, length: number): Kept | undefined {
  const bucket = kept.get(key);
  if (bucket === undefined) return undefined;
  for (const entry of bucket) {
    const n = entry.text.length;
    // A slice is a view, and string equality compares lengths first, then the characters natively.
    if ((length < 0 || n === length) && start + n <= text.length && text.slice(start, start + n) === entry.text) return entry;
  }
  return undefined;
}

/** Takes `entry` out of the cache's accounting (it may still sit in the queue, marked gone). */
function forget(entry: Kept): void {
  entry.gone = true;
  keptChars -= entry.text.length;
  keptEntries--;
}

function keep(key: number, text: string, value: unknown, height: number): void {
  while ((keptChars + text.length > MAX_KEPT || keptEntries >= MAX_ENTRIES) && oldest < order.length) {
    const entry = order[oldest++]!;
    if (entry.gone) continue;
    forget(entry);
    const bucket = kept.get(entry.key)!;
    bucket.splice(bucket.indexOf(entry), 1);
    if (bucket.length === 0) kept.delete(entry.key);
  }
  if (oldest > 1024 && oldest * 2 > order.length) {
    order = order.slice(oldest);
    oldest = 0;
  }
  let bucket = kept.get(key);
  if (bucket === undefined) kept.set(key, (bucket = []));
  if (bucket.length >= BUCKET) forget(bucket.shift()!);
  const entry: Kept = { key, text, value, height, gone: false };
  bucket.push(entry);
  order.push(entry);
  keptChars += text.length;
  keptEntries++;
}

/** Reads JSON like readJson, sharing every subtree (below the root) that was read before with the same text. */
export function readSharedJson(text: string): unknown {
  try {
    const reader = new SharingReader(text);
    reader.skipSpace();
    const value = reader.value();
    reader.skipSpace();
    if (reader.pos < text.length) reader.fail("unexpected text after the JSON value");
    return value;
  } catch {
    // A span's own error would name a position inside the span: readJson reports it for the whole text.
    return readJson(text);
  }
}

/**
 * Every `{...}` / `[...]` of one container (its descendants included) in pre-order: where it ends, the
 * first container after it, how deeply it nests.
 */
interface Spans {
  end: number[];
  next: number[];
  height: number[];
}

/**
 * One pass outside strings over the container opening at `start`, to its closing bracket; undefined when
 * brackets do not pair up or nest past MAX_DEPTH below `depth` open ones (readJson reports it).
 */
function containerSpans(text: string, start: number, depth: number): Spans | undefined {
  const spans: Spans = { end: [], next: [], height: [] };
  const open: number[] = [];
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (depth + open.length >= MAX_DEPTH) return undefined;
      open.push(spans.end.length);
      spans.end.push(c); // the opening bracket until the closing one is met
      spans.next.push(-1);
      spans.height.push(1);
    } else if (c === 0x7d || c === 0x5d) {
      const k = open.pop();
      if (k === undefined || spans.end[k] !== (c === 0x7d ? 0x7b : 0x5b)) return undefined;
      spans.end[k] = i + 1;
      spans.next[k] = spans.end.length;
      const parent = open.at(-1);
      if (parent !== undefined) spans.height[parent] = Math.max(spans.height[parent]!, spans.height[k]! + 1);
      else return spans;
    }
  }
  return undefined;
}

/**
 * The reader, taking every container below the root that was read before from the shared cache by its
 * text. Below the root a container is looked up from its first characters alone; one that was not seen
 * before is scanned once (its spans: where each container inside it ends), so its own children are
 * looked up by their known lengths, and a child without containers is read natively by readJson.
 */
class SharingReader extends Reader {
  /** The spans of the container being read afresh, with the pre-order index of the next one it holds. */
  private spans: Spans | undefined;
  private cursor = 0;

  override value(): unknown {
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x7b && c !== 0x5b) return super.value();
    if (this.depth === 0) return super.value();
    const spans = this.spans;
    if (spans === undefined) return this.unscanned();
    const k = this.cursor;
    const start = this.pos;
    const end = spans.end[k]!;
    const length = end - start;
    if (length < MIN_SHARED) {
      this.cursor = k + 1;
      if (spans.next[k] !== k + 1) return super.value();
      // No container inside: JSON.parse reads it fastest.
      this.pos = end;
      return readJson(this.text.slice(start, end));
    }
    const key = fingerprint(this.text, start, Math.min(length, PREFIX));
    const hit = lookup(key, this.text, start, length);
    if (hit !== undefined && this.depth + hit.height <= MAX_DEPTH) {
      this.pos = end;
      this.cursor = spans.next[k]!;
      return hit.value;
    }
    return this.fresh(k, key, start, end, spans.height[k]!);
  }

  /** A container met outside any scanned one: looked up by its first characters, scanned only when new. */
  private unscanned(): unknown {
    const start = this.pos;
    const short = shortLength(this.text, start);
    if (short >= 0 && short < MIN_SHARED) return super.value();
    const key = fingerprint(this.text, start, short >= 0 ? short : Math.min(PREFIX, this.text.length - start));
    const hit = lookup(key, this.text, start, short);
    if (hit !== undefined && this.depth + hit.height <= MAX_DEPTH) {
      this.pos = start + hit.text.length;
      return hit.value;
    }
    const spans = containerSpans(this.text, start, this.depth);
    if (spans === undefined) return super.value(); // not JSON: the reader finds the error
    this.spans = spans;
    this.cursor = 0;
    try {
      return this.fresh(0, key, start, spans.end[0]!, spans.height[0]!);
    } finally {
      this.spans = undefined;
    }
  }

  /** Reads container `k` of the spans (at `start`, up to `end`) afresh and keeps it when its size is worth it. */
  private fresh(k: number, key: number, start: number, end: number, height: number): unknown {
    const spans = this.spans!;
    let value: unknown;
    if (spans.next[k] === k + 1) {
      // No container inside: JSON.parse reads it fastest.
      value = readJson(this.text.slice(start, end));
      this.pos = end;
      this.cursor = k + 1;
    } else {
      // Read it here, so its children are looked up one by one: a history that grew by one message
      // shares every earlier message although the array is new.
      this.cursor = k + 1;
      value = super.value();
    }
    // A copy of the slice, not a view into the request text: a kept view would keep the whole body alive.
    if (end - start <= MAX_SHARED) keep(key, (" " + this.text.slice(start, end)).slice(1), freezeDeep(value), height);
    return value;
  }
}
