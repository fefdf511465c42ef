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
 * The largest subtree kept, in characters: a bigger one (a long tool result) is read afresh, and its
 * own children are shared. Subtrees shorter than MIN_SHARED are not worth an entry: reading them costs
 * less than looking them up, and their parent is shared anyway.
 */
const MAX_SHARED = 16384;
const MIN_SHARED = 48;

/** Characters of source text the cache may keep in all (the values it keeps are a few times that), and entries. */
const MAX_KEPT = 8 << 20;
const MAX_ENTRIES = 1 << 16;

/**
 * Subtrees are looked up by a cheap fingerprint and confirmed by comparing the whole text, which V8 does
 * at memory speed: hashing a fresh 10 KB slice as a Map key cost more than reading it with JSON.parse.
 * The fingerprint reads every character of a short subtree (messages differ in one word) and, of a long
 * one, its length, both ends and characters sampled across it. Distinct subtrees with one fingerprint
 * share a bucket of a few entries (the oldest leaves a full bucket), so a collision costs a comparison,
 * never a wrong value.
 */
const BUCKET = 4;
const FULL_HASH = 256;
const SAMPLES = 64;

interface Kept {
  readonly text: string;
  readonly value: unknown;
}

const kept = new Map<number, Kept[]>();
let keptChars = 0;
let keptEntries = 0;

function fingerprint(text: string, start: number, length: number): number {
  let h = length;
  if (length <= FULL_HASH) {
    for (let i = start; i < start + length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h;
  }
  for (let i = 0; i < 64; i++) h = Math.imul(h ^ text.charCodeAt(start + i) ^ (text.charCodeAt(start + length - 1 - i) << 16), 0x01000193);
  const step = Math.floor(length / SAMPLES);
  for (let i = 0, at = start; i < SAMPLES; i++, at += step) h = Math.imul(h ^ text.charCodeAt(at), 0x01000193);
  return h;
}

function lookup(key: number, text: string): Kept | undefined {
  const bucket = kept.get(key);
  if (bucket !== undefined) for (const entry of bucket) if (entry.text === text) return entry;
  return undefined;
}

function keep(key: number, text: string, value: unknown): void {
  while ((keptChars + text.length > MAX_KEPT || keptEntries >= MAX_ENTRIES) && kept.size > 0) {
    const [oldest, bucket] = kept.entries().next().value as [number, Kept[]];
    kept.delete(oldest);
    for (const entry of bucket) keptChars -= entry.text.length;
    keptEntries -= bucket.length;
  }
  let bucket = kept.get(key);
  if (bucket === undefined) kept.set(key, (bucket = []));
  if (bucket.length >= BUCKET) {
    keptChars -= bucket.shift()!.text.length;
    keptEntries--;
  }
  bucket.push({ text, value });
  keptChars += text.length;
  keptEntries++;
}

/** Reads JSON like readJson, sharing every subtree (below the root) that was read before with the same text. */
export function readSharedJson(text: string): unknown {
  const spans = containerSpans(text);
  if (spans === undefined || spans.count === 0) return readJson(text);
  try {
    const reader = new SharingReader(text, spans);
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

/** Every `{...}` / `[...]` of the text in pre-order: where it starts and ends, the first container after it. */
interface Spans {
  count: number;
  start: number[];
  end: number[];
  next: number[];
}

/** One pass outside strings; undefined when brackets do not pair up or nest too deeply (readJson reports it). */
function containerSpans(text: string): Spans | undefined {
  const spans: Spans = { count: 0, start: [], end: [], next: [] };
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = stringEnd(text, i);
    } else if (c === 0x7b || c === 0x5b) {
      if (open.length >= MAX_DEPTH) return undefined;
      open.push(spans.count);
      spans.start.push(i);
      spans.end.push(-1);
      spans.next.push(-1);
      spans.count++;
    } else if (c === 0x7d || c === 0x5d) {
      const k = open.pop();
      if (k === undefined || text.charCodeAt(spans.start[k]!) !== (c === 0x7d ? 0x7b : 0x5b)) return undefined;
      spans.end[k] = i + 1;
      spans.next[k] = spans.count;
    }
  }
  return open.length === 0 ? spans : undefined;
}

/** The reader, taking every small enough container below the root from the shared cache by its text. */
class SharingReader extends Reader {
  /** The pre-order index of the next container the reader will meet. */
  private cursor = 0;
  constructor(
    text: string,
    private readonly spans: Spans,
  ) {
    super(text);
  }

  override value(): unknown {
    const c = this.text.charCodeAt(this.pos);
    if (c !== 0x7b && c !== 0x5b) return super.value();
    const k = this.cursor;
    const start = this.pos;
    const end = this.spans.end[k]!;
    const length = end - start;
    if (this.depth === 0 || length < MIN_SHARED || length > MAX_SHARED) {
      this.cursor++;
      return super.value();
    }
    const slice = this.text.slice(start, end);
    const key = fingerprint(this.text, start, length);
    const hit = lookup(key, slice);
    if (hit !== undefined) {
      this.pos = end;
      this.cursor = this.spans.next[k]!;
      return hit.value;
    }
    let value: unknown;
    if (this.spans.next[k] === k + 1) {
      // No container inside: JSON.parse reads it fastest.
      value = readJson(slice);
      this.pos = end;
      this.cursor = k + 1;
    } else {
      // Read it here, so its children are looked up one by one: a history that grew by one message
      // shares every earlier message although the array is new.
      this.cursor++;
      value = super.value();
    }
    // A copy of the slice, not a view into the request text: a kept view would keep the whole body alive.
    keep(key, (" " + slice).slice(1), freezeDeep(value));
    return value;
  }
}
