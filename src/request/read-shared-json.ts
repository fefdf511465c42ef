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
import { flatCopy } from "../flat-copy.js";
import { KnownEscapes, freezeDeep, freezeDeepFrom, freezeMarked, freezeNewMarked, markedDeepFrozen } from "../jinja/index.js";
import { escapedLiterals } from "./escaped-literals.js";
import { noteJsonMade } from "./json-made.js";
import { isIndexKey } from "../jinja/key-order.js";
import { JSON_NUMBER, type JsonScan, MAX_DEPTH, Reader, floatOfMark, isFloatMark, parseMarked, readJson, scanJson, stringEnd } from "./read-json.js";

/**
 * The largest subtree kept, in characters: a bigger one (a huge tool result) is read afresh, and its
 * own children are shared. A hit costs one comparison at memory speed, far less than reading the text,
 * so whole tool lists and histories are worth keeping. Subtrees shorter than MIN_SHARED are not worth
 * an entry: reading them costs less than looking them up, and their parent is shared anyway.
 */
const MAX_SHARED = 1 << 18;
const MIN_SHARED = 48;

/**
 * The cache is bounded by the bytes it holds, estimated per entry from its text: its own copy of the
 * text, the deeply frozen value read from it, and what other caches hang on that value for as long as
 * it lives (tojson text, a tool schema's check and validator, all kept by identity in WeakMaps). Measured
 * in a server fed a new tool schema in every request (bench/server.mjs), the heap after GC grew by 16
 * bytes per character kept (about 2.5 KB per entry of ~160 characters), so each entry weighs that
 * much; larger subtrees (a long history, mostly text) hold less per character, so the estimate errs on
 * the safe side. 16 MB is about 1 M characters: several conversations of 21 tools and a long history.
 */
const BYTES_PER_CHAR = 16;
const BYTES_PER_ENTRY = 256;
const MAX_KEPT_BYTES = 16 << 20;
const MAX_ENTRIES = 1 << 16;
const weightOf = (text: string, ends: readonly number[] | undefined | null): number => BYTES_PER_ENTRY + BYTES_PER_CHAR * text.length + 8 * (ends?.length ?? 0);

/**
 * Top-level arrays (`tools`, `messages`) are looked up by a fingerprint of their first PREFIX characters
 * (all of a shorter one) and confirmed by comparing the whole text, which V8 does at memory speed. The
 * fingerprint needs no more than the array's start, so an array seen before is found without reading,
 * or even scanning, the rest of it: a repeated 20 KB tool list costs a 256-character hash and one
 * comparison. Distinct arrays with one fingerprint (versions of one history, which keep their first
 * characters) share a bucket of up to 16 entries (the oldest leaves a full bucket), so a collision
 * costs a comparison (of the ends first, where versions of a history differ), never a wrong value.
 * Every other container (a tool, a message) is scanned to its end and looked up by its whole text in a
 * Map (SharingReader.container).
 */
const BUCKET = 16;
const PREFIX = 256;
/**
 * Arrays of one fingerprint that differ later on (a tool list or a history of another request whose
 * first PREFIX characters are the same: its first tool's name, its system prompt's start) are told
 * apart by a second fingerprint, of their characters from PREFIX to DEEP, before any text is compared:
 * a bucket of such arrays, each ending as the others do, compared each one's tail and first item with
 * the new text, a tenth of reading a request that shares nothing (issue 19). Taken only where a bucket
 * holds more than one array, and only from arrays of at least 2 * DEEP characters: one that repeats
 * the first items of such an array (a history with a new turn) repeats its first DEEP characters
 * unless they are shorter than that, and reading those again costs little. DEEP is short because an
 * agent loop's versions of its history all agree there, so it pays for the hash and gains nothing.
 */
const DEEP = 768;
/** The longest text V8 hashes in full (String::kMaxHashCalcLength): longer keys in `whole` would all collide by length. */
const MAX_HASHED = 16383;

interface Kept {
  /** Its fingerprint (a top-level array's entry, in `kept`), or undefined for an entry of `whole`. */
  readonly key: number | undefined;
  /** Its text and value: "" and undefined once pushed out of its bucket (dropped), so the queue holds on to neither. */
  text: string;
  value: unknown;
  /**
   * How deeply the subtree nests (1 for a container of scalars): a hit must not pass MAX_DEPTH either.
   * An array that reused another's first items may count that one's depth: too deep at worst, which
   * only makes a hit near the limit read afresh (and readJson decides).
   */
  readonly height: number;
  /** Out of its bucket already (pushed out by a newer one of the same fingerprint). */
  gone: boolean;
  /**
   * An array read item by item: where each item's text ends (from the array's start). Null for an
   * array read natively without a scan (nativeArray), until a later array with its fingerprint needs
   * them (itemEnds); undefined for anything else.
   */
  ends: readonly number[] | undefined | null;
  /** Its first item's end, for an array whose ends are not known yet (null: not looked for yet). */
  firstEnd: number | null;
  /** The fingerprint of its characters from PREFIX to DEEP (deepOf): undefined until asked, null when it is too short to have one. */
  deep: number | null | undefined;
  /** The bytes it is taken to hold (weightOf when kept, with its item ends once itemEnds found them). */
  weight: number;
}

/** Top-level arrays (and other containers over MAX_HASHED characters) by fingerprint, in buckets. */
const kept = new Map<number, Kept[]>();
/**
 * Fingerprints of top-level arrays nativeArray found it could not read well: cut where what followed
 * the last one came (followers), or the text (marked or not, see marksFirst) did not parse.
 * A client's bodies keep their shape, so the next arrays with that fingerprint go to the scan at once,
 * with how many more are to (SCAN_FIRST of them, then one is tried again: an array of the same first
 * characters from another body, or a client whose tools changed, is not sent to the scan for good).
 * Bounded: cleared when full (which costs one try more, never a wrong value).
 */
const scanFirst = new Map<number, number>();
const MAX_SCAN_FIRST = 4096;
const SCAN_FIRST = 15;
function scanFromNowOn(key: number): void {
  if (scanFirst.size >= MAX_SCAN_FIRST) scanFirst.clear();
  scanFirst.set(key, SCAN_FIRST);
}

/**
 * Fingerprints of top-level arrays that held an integral float (`1.0`, which JSON.parse makes an int:
 * a Python client writes every float default so). A client's bodies keep their shape, so nativeArray
 * reads the next arrays of such a fingerprint with their integral floats found first and marked, in
 * one JSON.parse, instead of sending them to the scan: the scan of a 20 KB tool list and a second
 * JSON.parse cost more than reading it (issue 19: a request that shares nothing, from such a client,
 * read in 0.6x the time). Bounded as scanFirst is.
 */
const marksFirst = new Set<number>();
function marksFromNowOn(key: number): void {
  if (marksFirst.size >= MAX_SCAN_FIRST) marksFirst.clear();
  marksFirst.add(key);
}

/**
 * What followed a top-level array of each fingerprint that was not the body's last (its first
 * FOLLOWER characters: `,\n  "tools": [`). A client's bodies keep their shape, so the next array of
 * that fingerprint is cut where those characters come next and taken if that parses as one value
 * (nativeArray): JSON.parse of the text to the body's last `]` stopped at its end and was read again,
 * and the scan that finds its end cost as much as JSON.parse reading it (issue 19). Bounded as
 * scanFirst is.
 */
interface Follower {
  readonly text: string;
  /**
   * The length of the last array of its fingerprint that was cut so: the next one is cut there first
   * when the follower comes there (one as long: a client's arrays of new contents in one shape often
   * are), not where the search finds it: the search cost ~0.6 us in issue 19's share-nothing bench
   * (its history, cut before the tool list; a search for 16 characters).
   */
  length: number;
}
const followers = new Map<number, Follower>();
const FOLLOWER = 16;
function noteFollower(key: number, text: string, start: number, end: number): void {
  if (followers.size >= MAX_SCAN_FIRST) followers.clear();
  // A copy: a slice of 13 characters or more is a view that would keep the whole body alive.
  followers.set(key, { text: flatCopy(text.slice(end, end + FOLLOWER)), length: end - start });
}

/** Whether an array of fingerprint `key` goes to the scan this time (scanFirst). */
function toTheScan(key: number): boolean {
  const left = scanFirst.get(key);
  if (left === undefined) return false;
  if (left === 0) {
    scanFirst.delete(key);
    return false;
  }
  scanFirst.set(key, left - 1);
  return true;
}

/**
 * How many top-level arrays of each fingerprint came in a row, none of them found again nor repeating
 * the first items of one kept (topArray). A client whose arrays all share their first characters and
 * nothing else (requests that share nothing) kept a full bucket of arrays no request asked for again:
 * each new array was compared with all of them (and hashed for DEEP) to no avail, and each one kept
 * lived on to be promoted and collected by the old generation's GC (issue 19: the share-nothing read
 * 2% faster without them, its row 1-2%). After a bucket's worth in a row its bucket is emptied (no
 * array in it was asked for again while BUCKET new ones came, and FIFO had pushed out every older
 * one), and from then on only every COLD_SAMPLE-th is kept, alone. The price: an array that comes
 * during such a run and is sent again (a new client whose requests repeat) is found again only once
 * one of its versions is kept, within COLD_SAMPLE requests (each read afresh till then); a hit ends
 * the run. Bounded as scanFirst is.
 */
const coldRuns = new Map<number, number>();
const COLD_SAMPLE = 32;
/** Whether a top-level array of fingerprint `key` read afresh (nothing in it shared) is kept, and counts it. */
function keepsCold(key: number): boolean {
  const run = (coldRuns.get(key) ?? 0) + 1;
  if (run === 1 && coldRuns.size >= MAX_SCAN_FIRST) coldRuns.clear();
  coldRuns.set(key, run);
  if (run <= BUCKET) return true;
  const sampled = run % COLD_SAMPLE === 0;
  if (run === BUCKET + 1 || sampled) dropBucket(key);
  return sampled;
}

/**
 * Keeps a new top-level array read afresh (keep), unless keepsCold says its run of misses leaves it out
 * (`always`: it reused a kept one's items, which ends the run); either way the value is recorded as
 * made from JSON text (noteJsonMade: keep records the ones it keeps).
 */
function keepNew(key: number, text: string, start: number, end: number, value: object, height: number, ends: readonly number[] | undefined | null, deep: number | undefined, always = false): void {
  if (always || keepsCold(key)) keep(key, ownText(text, start, end), value, height, ends, deep);
  else noteJsonMade(value);
}

/** Takes every array of fingerprint `key` out of the cache. */
function dropBucket(key: number): void {
  const bucket = kept.get(key);
  if (bucket === undefined) return;
  kept.delete(key);
  for (const entry of bucket) drop(entry);
}

/** Every other container kept (up to MAX_HASHED characters), by its whole text. */
const whole = new Map<string, Kept>();
/**
 * Every entry in the order it was kept, oldest at `oldest`: the cache forgets the oldest first. A queue,
 * not the Map's own order: finding a Map's first entry walks past every deleted one, which made keeping
 * a subtree cost more than reading it once the cache was full.
 */
let order: Kept[] = [];
let oldest = 0;
let keptBytes = 0;
let keptChars = 0;
let keptEntries = 0;
/** Entries in the queue (past `oldest`) already out of the cache: pushed out of a full bucket (drop). */
let droppedInQueue = 0;

/**
 * The fingerprint of the `length` characters at `start` (the subtree's first PREFIX, or all of it). Two
 * hashes, of the even and the odd characters, combined at the end: each step of one waits on its
 * multiplication, so two chains run side by side (a new request hashes ~1,500 characters).
 */
function fingerprint(text: string, start: number, length: number): number {
  let even = length;
  let odd = 0x2f;
  const end = start + length;
  let i = start;
  for (; i + 1 < end; i += 2) {
    even = Math.imul(even ^ text.charCodeAt(i), 0x01000193);
    odd = Math.imul(odd ^ text.charCodeAt(i + 1), 0x01000193);
  }
  if (i < end) even = Math.imul(even ^ text.charCodeAt(i), 0x01000193);
  return Math.imul(even ^ (odd >>> 15), 0x01000193) ^ odd;
}

/**
 * The length of the array opening at `start` when it closes within PREFIX characters, else -1 (also
 * for text that is not JSON: the lookup then fails, and the reader reports the error): a short
 * array's fingerprint covers exactly its own characters, not what follows it.
 */
function shortLength(text: string, start: number): number {
  const limit = Math.min(text.length, start + PREFIX);
  // No `]` before the limit (indexOf finds it natively): it cannot close there.
  const close = text.indexOf("]", start);
  if (close < 0 || close >= limit) return -1;
  let depth = 0;
  for (let i = start; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) i = stringEnd(text, i);
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1 - start;
  }
  return -1;
}

/** The second fingerprint of a kept array (see DEEP), null when it is too short to have one. */
function deepOf(entry: Kept): number | null {
  if (entry.deep === undefined) entry.deep = entry.text.length >= 2 * DEEP ? fingerprint(entry.text, PREFIX, DEEP - PREFIX) : null;
  return entry.deep;
}

/** Whether a kept array's characters from PREFIX to DEEP differ from those `deep` (the new text's, or undefined: not taken) fingerprints. */
function differsEarly(entry: Kept, deep: number | undefined): boolean {
  if (deep === undefined) return false;
  const own = deepOf(entry);
  return own !== null && own !== deep;
}

/** The second fingerprint of the text at `start`, where the bucket of `key` holds arrays it may tell apart (see DEEP). */
function deepKey(key: number, text: string, start: number): number | undefined {
  const bucket = kept.get(key);
  if (bucket === undefined || bucket.length < 2 || start + DEEP > text.length) return undefined;
  // Its oldest and newest alike there (versions of one history, an agent loop's): most likely so is this one.
  const newest = deepOf(bucket[bucket.length - 1]!);
  if (newest !== null && newest === deepOf(bucket[0]!)) return undefined;
  return fingerprint(text, start + PREFIX, DEEP - PREFIX);
}

function lookup(key: number, text: string, start: number, length: number, deep?: number): Kept | undefined {
  const bucket = kept.get(key);
  if (bucket === undefined) return undefined;
  for (const entry of bucket) {
    if (differsEarly(entry, deep)) continue;
    const n = entry.text.length;
    // The end first: a sibling (the same history with another last message) has the same first
    // characters and would otherwise be compared to its end. A slice is a view, and string equality
    // compares the characters natively (startsWith with a position walks them one by one: 10x slower).
    if ((length < 0 || n === length) && start + n <= text.length && sameTail(text, start, entry.text, n) && text.slice(start, start + n) === entry.text) return entry;
  }
  return undefined;
}

/** Whether the `m` characters of `text` at `start` end as the first `m` of `old` do (their last TAIL at most). */
const TAIL = 32;
function sameTail(text: string, start: number, old: string, m: number): boolean {
  for (let i = m - 1, from = Math.max(0, m - TAIL); i >= from; i--) if (text.charCodeAt(start + i) !== old.charCodeAt(i)) return false;
  return true;
}

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** How many of a kept array's last items may differ (replaced, dropped) for its first ones to be reused. */
const CHANGED_TAIL = 3;

/**
 * A kept array whose first items this text repeats, followed by a comma or the closing bracket: an
 * agent's history sent again with the new turn appended, or with its last turns replaced (a reply
 * regenerated). Same first characters, so the same bucket; the most items win. Returns the array and
 * how many of its items, with the length of their text.
 */
function sharedItems(key: number, text: string, start: number, deep: number | undefined): { entry: Kept; count: number; length: number } | undefined {
  const bucket = kept.get(key);
  if (bucket === undefined) return undefined;
  let best: { entry: Kept; count: number; length: number } | undefined;
  for (let b = bucket.length - 1; b >= 0; b--) {
    const entry = bucket[b]!;
    if (differsEarly(entry, deep)) continue;
    const old = entry.text;
    if (entry.ends === null) {
      // Read without a scan: its first item is found and compared before its ends are looked for.
      const first = firstItemEnd(entry);
      if (first < 0 || text.slice(start, start + first) !== old.slice(0, first)) continue;
    }
    const ends = itemEnds(entry);
    if (ends === undefined) continue;
    let firstSame = false;
    for (let count = ends.length; count > 0 && count >= ends.length - CHANGED_TAIL; count--) {
      const m = ends[count - 1]!;
      if (best !== undefined && m <= best.length) break;
      if (start + m > text.length || !sameTail(text, start, old, m)) continue;
      let after = start + m;
      while (after < text.length && isSpace(text.charCodeAt(after))) after++;
      const next = text.charCodeAt(after);
      if (next !== 0x2c && next !== 0x5d) continue;
      // The first item before any longer comparison: new versions of pretty-printed tools or messages
      // end alike, so the tails say little, and when the first item differs no count can match.
      if (!firstSame) {
        const first = ends[0]!;
        if (text.slice(start, start + first) !== old.slice(0, first)) break;
        firstSame = true;
      }
      if (text.slice(start, start + m) === old.slice(0, m)) {
        best = { entry, count, length: m };
        break;
      }
    }
  }
  return best;
}

/** Where each item of a kept array ends, scanned from its own text the first time they are needed. */
function itemEnds(entry: Kept): readonly number[] | undefined {
  if (entry.ends !== null) return entry.ends;
  const ends: number[] = [];
  const scan = scanJson(entry.text, 0, MAX_DEPTH, true, ends);
  entry.ends = scan !== undefined && scan.end === entry.text.length ? ends : undefined;
  // Counted as an array read with its ends is (weightOf): the cache's bound covers them too.
  if (entry.ends !== undefined && !entry.gone) {
    const more = weightOf(entry.text, entry.ends) - entry.weight;
    entry.weight += more;
    keptBytes += more;
  }
  return entry.ends;
}

/** Where the first item of a kept array read without a scan ends (-1: not a container, or no item; itemEnds decides). */
function firstItemEnd(entry: Kept): number {
  if (entry.firstEnd !== null) return entry.firstEnd;
  const old = entry.text;
  let at = 1;
  while (at < old.length && isSpace(old.charCodeAt(at))) at++;
  const c = old.charCodeAt(at);
  const scan = c === 0x7b || c === 0x5b ? scanJson(old, at, MAX_DEPTH, true) : undefined;
  return (entry.firstEnd = scan === undefined ? -1 : scan.end);
}

/** Takes `entry` out of the cache's accounting (it may still sit in the queue, marked gone). */
function forget(entry: Kept): void {
  entry.gone = true;
  keptChars -= entry.text.length;
  keptBytes -= entry.weight;
  keptEntries--;
}

/**
 * Takes an entry pushed out of its full bucket out of the cache. It stays in the queue (taking it out
 * there would be a search), so its text and value are let go now: otherwise the queue kept every array
 * ever pushed out of a bucket, which only the cache's bound on bytes (never reached while buckets
 * overflow) would have let go: a client whose arrays all share their first characters (requests
 * that share nothing) grew the heap by each request's whole tree (issue 19).
 */
function drop(entry: Kept): void {
  forget(entry);
  release(entry);
  droppedInQueue++;
}

/** Lets go of an entry's text and value: the queue keeps entries that are out (before `oldest`, or dropped) until it is rebuilt. */
function release(entry: Kept): void {
  entry.text = "";
  entry.value = undefined;
  entry.ends = undefined;
}

/** Makes room for an entry of `weight` bytes, the oldest entries out first. */
function makeRoom(weight: number): void {
  while ((keptBytes + weight > MAX_KEPT_BYTES || keptEntries >= MAX_ENTRIES) && oldest < order.length) {
    const entry = order[oldest++]!;
    if (entry.gone) {
      droppedInQueue--;
      continue;
    }
    forget(entry);
    if (entry.key === undefined) whole.delete(entry.text);
    else {
      const bucket = kept.get(entry.key)!;
      bucket.splice(bucket.indexOf(entry), 1);
      if (bucket.length === 0) kept.delete(entry.key);
    }
    // Until the queue is rebuilt (up to as many entries as the cache holds) its slot would hold on to
    // both: up to 1,024 bodies of a quarter million characters past the bound on bytes.
    release(entry);
  }
  // The queue is rebuilt when most of it is out already: the entries before `oldest`, or dropped ones.
  if ((oldest > 1024 && oldest * 2 > order.length) || (droppedInQueue > 1024 && droppedInQueue * 2 > order.length - oldest)) {
    order = order.slice(oldest).filter((entry) => !entry.gone);
    oldest = 0;
    droppedInQueue = 0;
  }
}

function account(entry: Kept, weight: number): void {
  order.push(entry);
  keptChars += entry.text.length;
  keptBytes += weight;
  keptEntries++;
}

/** Keeps a top-level array (or a container too long for `whole`) under its fingerprint. */
function keep(key: number, text: string, value: unknown, height: number, ends: readonly number[] | undefined | null, deep?: number): void {
  const weight = weightOf(text, ends);
  makeRoom(weight);
  let bucket = kept.get(key);
  if (bucket === undefined) kept.set(key, (bucket = []));
  if (bucket.length >= BUCKET) drop(bucket.shift()!);
  // The new text's second fingerprint where it was taken, and the array is long enough to have one.
  const entry: Kept = { key, text, value, height, gone: false, ends, firstEnd: null, deep: deep !== undefined && text.length >= 2 * DEEP ? deep : undefined, weight };
  bucket.push(entry);
  account(entry, weight);
  // A top-level array (a request's tools) is known plain when its schemas are surveyed.
  if (typeof value === "object" && value !== null) noteJsonMade(value);
}

/** Keeps any other container by its text (not there yet: the caller looked it up). */
function keepWhole(text: string, value: unknown, height: number): void {
  const weight = weightOf(text, undefined);
  makeRoom(weight);
  const entry: Kept = { key: undefined, text, value, height, gone: false, ends: undefined, firstEnd: null, deep: null, weight };
  whole.set(text, entry);
  account(entry, weight);
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
    // A subtree's own error would name a position inside it: readJson reports it for the whole text.
    return readJson(text);
  }
}

/**
 * The reader, taking every container below the root that was read before from the shared cache by its
 * text. Only what was not seen before is read. The sharing goes two levels down, where requests repeat
 * themselves: the root's members (`tools`, `messages`, `input`, ...) and the items of those that are
 * arrays (each tool, each message). A top-level array is found from its first characters alone; one
 * that repeats a kept one's first items (a history that grew by a turn) takes them from it and reads
 * the rest item by item; one that shares nothing is read natively in one go and kept with where its
 * items end (coldArray: its items get no entries of their own). Any other container is scanned once
 * (its end, its integral floats, its depth), found by its whole text, and when new read natively in
 * one go (JSON.parse reads it; one walk freezes it and puts its floats in) and kept whole. Deeper
 * containers get no entries of their own: a new tool or message is new text as a whole, and looking
 * up each of its parts cost more than reading them (issue 19: requests that share nothing).
 */
class SharingReader extends Reader {
  override value(): unknown {
    const c = this.text.charCodeAt(this.pos);
    if ((c !== 0x7b && c !== 0x5b) || this.depth === 0) return super.value();
    return c === 0x5b && this.depth === 1 ? this.topArray() : this.container();
  }

  /**
   * A container other than a top-level array (a tool, a message, a root member that is an object),
   * found by its whole text: one scan finds its end (and its integral floats and depth, for reading it
   * if it is new), and a Map keyed by the text finds it, hashing and comparing natively. Buckets by
   * first characters cost one comparison per entry there, and versions of a pretty-printed tool or
   * message (one description changed) share their first characters and their last: a miss compared
   * with each of them (issue 19: requests that share nothing). Scanning a tool or message seen
   * before costs little; the large subtrees worth finding unscanned are the top-level arrays.
   */
  private container(): unknown {
    const text = this.text;
    const start = this.pos;
    const scan = scanJson(text, start, MAX_DEPTH - this.depth, true);
    // Nesting past the limit, or bad JSON: the reader reads it, and fails where readJson would.
    if (scan === undefined) return freezeDeep(super.value());
    const length = scan.end - start;
    // Too short to be worth an entry: reading it costs less than looking it up.
    if (length < MIN_SHARED) return this.native(start, scan);
    // A copy of the text where it is a small part of the request (a view would keep the whole body
    // alive), taken before the lookup so its hash is computed once, for the lookup and the entry.
    const own = length > MAX_SHARED ? undefined : ownText(text, start, scan.end);
    // Longer text V8 hashes by its length alone, so a Map of such keys would be a list to compare
    // along: those go to the buckets by fingerprint (of a known length), as top-level arrays do.
    const key = own === undefined || length <= MAX_HASHED ? undefined : fingerprint(text, start, PREFIX);
    const hit = own === undefined ? undefined : key === undefined ? whole.get(own) : lookup(key, text, start, length);
    if (hit !== undefined) {
      this.pos = scan.end;
      this.reached(this.depth + scan.height);
      return hit.value;
    }
    const outer = this.peak;
    this.peak = this.depth;
    const value = this.native(start, scan);
    const height = this.peak - this.depth;
    this.reached(outer);
    if (key !== undefined) keep(key, own!, value, height, undefined);
    else if (own !== undefined) keepWhole(own, value, height);
    return value;
  }

  /**
   * A top-level array (`messages`, `tools`), found by a fingerprint of its first characters, unscanned:
   * a repeated 20 KB tool list costs a 256-character hash and one comparison. New, it is kept with
   * where each item ends: a later array that repeats its first items (a history with a new turn) takes
   * them from it without reading them again.
   */
  private topArray(): unknown {
    const text = this.text;
    const start = this.pos;
    const length = shortLength(text, start);
    // Too short to be worth an entry: reading it costs less than looking it up.
    if (length >= 0 && length < MIN_SHARED) return this.native(start);
    const key = fingerprint(text, start, length >= 0 ? length : Math.min(PREFIX, text.length - start));
    const deep = deepKey(key, text, start);
    const hit = lookup(key, text, start, length, deep);
    if (hit !== undefined && this.depth + hit.height <= MAX_DEPTH) {
      coldRuns.delete(key);
      this.pos = start + hit.text.length;
      this.reached(this.depth + hit.height);
      return hit.value;
    }
    let value: unknown[];
    let ends: number[] | undefined;
    let reused = 0;
    const outer = this.peak;
    this.peak = this.depth;
    const shared = sharedItems(key, text, start, deep);
    if (shared !== undefined && this.depth + shared.entry.height <= MAX_DEPTH) {
      // A loop, not slice(): slicing a frozen array takes V8's slow path (ten times the cost).
      const all = shared.entry.value as readonly unknown[];
      const first: unknown[] = [];
      for (let i = 0; i < shared.count; i++) first.push(all[i]);
      reused = shared.count;
      coldRuns.delete(key);
      ends = shared.entry.ends!.slice(0, shared.count);
      this.depth++; // the array is open
      this.reached(this.depth - 1 + shared.entry.height);
      this.pos = start + shared.length;
      this.skipSpace();
      if (text.charCodeAt(this.pos) === 0x5d) {
        this.pos++;
        this.depth--;
        value = first;
      } else {
        this.pos++; // the comma
        this.skipSpace();
        value = this.items(first, ends, start);
      }
    } else {
      // A short one (within its fingerprint's PREFIX characters) is read item by item: a grown version
      // has another fingerprint, so only its items' own entries can share them.
      const cold = length < 0 ? (this.nativeArray(key, start, deep) ?? this.coldArray(key, start, deep)) : undefined;
      if (cold !== undefined) return cold;
      if (this.open("]")) {
        value = [];
      } else {
        ends = [];
        value = this.items([], ends, start);
      }
    }
    const height = this.peak - this.depth;
    this.reached(outer);
    // A view where the array is most of the request (a history): copying it cost more than reading it.
    const end = this.pos;
    // An array that repeats another's first DEEP characters has its second fingerprint too (a loop's history: no hash).
    const own = deep ?? (shared !== undefined && shared.length >= DEEP ? (deepOf(shared.entry) ?? undefined) : undefined);
    if (end - start <= MAX_SHARED) {
      const frozen = reused > 0 ? freezeDeepFrom(value, reused) : freezeDeep(value);
      keepNew(key, text, start, end, frozen, height, ends, own, reused > 0);
    }
    return value;
  }

  /**
   * A top-level array that shares nothing with one kept (neither its text nor its first items), read
   * natively in one go and kept with where each item ends (for a later array that repeats its first
   * items): one scan finds its end, item ends, integral floats and depth, one JSON.parse reads it,
   * one walk freezes it. Its items get no entries of their own (see SharingReader). Undefined where
   * the item-by-item reader must decide: an array over MAX_SHARED characters (not kept, so its items
   * are), an integer-like key, a string like a float's mark, nesting past the limit, bad JSON.
   */
  private coldArray(key: number, start: number, deep: number | undefined): unknown[] | undefined {
    const text = this.text;
    const ends: number[] = [];
    const scan = scanJson(text, start, MAX_DEPTH - this.depth, true, ends, MAX_SHARED);
    if (scan === undefined || scan.indexKeys) return undefined;
    // Not the body's last array: the next of its fingerprint is cut where what follows it comes (nativeArray).
    if (text.lastIndexOf("]") >= scan.end) noteFollower(key, text, start, scan.end);
    else followers.delete(key);
    const own = text.slice(start, scan.end);
    const read = JSON.parse(own) as unknown[];
    if (scan.floats.length > 0 && !floatsIn(read, text, start, ends, scan.floats)) return undefined;
    const mark = escapesMark(own);
    this.pos = scan.end;
    this.reached(this.depth + scan.height);
    for (const item of read) {
      if (item === null || typeof item !== "object") continue;
      // Each item recorded as deeply frozen too, as when read on its own: a render asks about the items
      // (tojson of a tool), and would otherwise walk each to find it frozen. freezeRead marks it (and
      // floatsIn's); markedDeepFrozen is for an item frozen before (a PyFloat).
      if (!Object.isFrozen(item)) freezeRead(item, false, true, mark);
      else markedDeepFrozen(item, mark);
    }
    keepNew(key, text, start, scan.end, freezeMarked(read, mark), scan.height, ends, deep);
    return read;
  }

  /**
   * A new top-level array (as coldArray) read without a scan: JSON.parse finds its end. Scanning a
   * tool list for its end, item ends, integral floats and depth cost as much as JSON.parse reading it
   * (issue 19: requests that share nothing). When it is the body's last array, its text runs to the
   * body's last `]`; when not, JSON.parse of that much stops where it ends, and says where (then it is
   * read again, and what follows it is noted: the next arrays of its fingerprint are cut where that
   * comes, see followers). Either way the text is taken only if it parses as one value, which makes
   * it exactly this array. Its item ends
   * are scanned when a later array with its fingerprint needs them (itemEnds); its depth and
   * integer-like keys are found by the walk that freezes it. Its integral floats (`1.0`, which
   * JSON.parse makes an int) are marked before the parse once its fingerprint has met one (marksFirst).
   * Undefined where coldArray decides: over MAX_SHARED characters, the first integral float of its
   * fingerprint, an integer-like key, nesting past the limit, bad JSON (or a marked text that does not
   * parse).
   */
  private nativeArray(key: number, start: number, deep: number | undefined): unknown[] | undefined {
    const text = this.text;
    const last = text.lastIndexOf("]") + 1;
    if (last <= start || toTheScan(key)) return undefined;
    // Where what followed the last array of this fingerprint comes next, or the body's last `]`. Where
    // it comes as far from the start as last time, it is cut there: any cut is taken only if it parses
    // as one value (a shorter or a longer cut cannot), so the first place it comes need not be found.
    const follower = followers.get(key);
    const guess = follower === undefined ? -1 : start + follower.length;
    let end = follower === undefined ? last : text.startsWith(follower.text, guess) ? guess : text.indexOf(follower.text, start + 1);
    if (end <= start || end - start > MAX_SHARED) return undefined;
    let own = text.slice(start, end);
    // This fingerprint's last array held an integral float: every one is found and marked before the
    // parse (a float's place only: a `2.0` found in a string breaks the marked text, see integralFloatLiterals).
    const marking = marksFirst.has(key);
    let read: unknown;
    let marked = false;
    // No stack for an error that only says where the array ends: capturing one was a third of its cost.
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      const floats = marking ? integralFloatLiterals(own) : NO_FLOATS;
      // With nothing to mark the text is parsed as it is: a string it writes `\u0000...` is no mark.
      marked = floats.length > 0;
      read = marked ? parseMarked(own, floats) : JSON.parse(own);
    } catch (err) {
      // Cut where the follower came, in the wrong place (or it came too late), or a mark in a string:
      // the scan reads it, and the next arrays of this fingerprint (a text that holds the follower may
      // come again).
      if (follower !== undefined || marking) {
        followers.delete(key);
        marksFirst.delete(key);
        scanFromNowOn(key);
        return undefined;
      }
      // Another member follows: the error's position (a hint only: the text must parse on its own) is where.
      const at = err instanceof SyntaxError ? AT_POSITION.exec(err.message) : null;
      if (at === null) return undefined;
      end = start + Number(at[1]);
      while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
      if (end <= start || end >= last) return undefined;
      noteFollower(key, text, start, end);
      own = text.slice(start, end);
      try {
        read = JSON.parse(own);
      } catch {
        return undefined;
      }
    } finally {
      Error.stackTraceLimit = stackLimit;
    }
    // A string like a float's mark (parseMarked), or not an array.
    if (!Array.isArray(read)) {
      marksFirst.delete(key);
      return undefined;
    }
    // The array and each item recorded as deeply frozen (see coldArray), as the walk freezes them.
    const walk: Walk = { ints: false, markAbove: MAX_DEPTH - this.depth - 2, marks: marked, mark: escapesMark(own) };
    const height = frozenHeight(read, MAX_DEPTH - this.depth, walk);
    // Only an int can have been written `1.0`: the text is searched for such a literal only when there
    // is one, and it was not searched before the parse.
    if (height < 0) {
      scanFromNowOn(key);
      return undefined;
    }
    if (!marking && walk.ints && integralFloatLiterals(own, true).length > 0) {
      marksFromNowOn(key);
      return undefined;
    }
    this.pos = end;
    this.reached(this.depth + height);
    if (follower !== undefined) follower.length = end - start;
    keepNew(key, text, start, end, read, height, null, deep);
    return read;
  }

  /**
   * The container at `start`, new, read natively and deeply frozen: one scan (`scan`, or made here)
   * finds its end, integral floats and depth, JSON.parse reads it, one walk freezes it and puts its
   * floats in.
   */
  private native(start: number, scanned?: JsonScan): unknown {
    const text = this.text;
    const scan = scanned ?? scanJson(text, start, MAX_DEPTH - this.depth, true);
    const read = scan === undefined || scan.indexKeys ? undefined : parseMarked(text.slice(start, scan.end), scan.floats);
    if (scan === undefined || read === undefined) {
      // An integer-like key, a string like a float's mark, nesting past the limit or bad JSON: the JS
      // reader reads it (and fails where readJson would).
      return freezeDeep(super.value());
    }
    this.pos = scan.end;
    this.reached(this.depth + scan.height);
    freezeRead(read, scan.floats.length > 0, true); // a container: the text at `start` opens one
    return read;
  }
}

/**
 * Puts the integral floats (`floats`, from `start`) into the items of an array JSON.parse read from
 * the text at `start` (which made them ints): each item holding any is read again from its own text
 * with them marked, and frozen. Marking only those items spares copying the whole array's text to mark
 * a `1.0` in one tool. False when such an item holds a string like a mark (the reader must read it).
 */
function floatsIn(read: unknown[], text: string, start: number, ends: readonly number[], floats: readonly number[]): boolean {
  let f = 0;
  for (let i = 0; i < ends.length && f < floats.length; i++) {
    const to = ends[i]!;
    if (floats[f]! >= to) continue;
    let from = i === 0 ? 1 : ends[i - 1]!;
    for (let c = text.charCodeAt(start + from); isSpace(c) || c === 0x2c; c = text.charCodeAt(start + ++from));
    const own: number[] = [];
    for (; f < floats.length && floats[f]! < to; f += 2) own.push(floats[f]! - from, floats[f + 1]! - from);
    const item = parseMarked(text.slice(start + from, start + to), own);
    if (item === undefined) return false;
    if (isFloatMark(item)) read[i] = floatOfMark(item);
    else {
      freezeRead(item, true, true);
      read[i] = item;
    }
  }
  return true;
}

/** Where JSON.parse's message says it stopped (V8: "... at position 1234"). */
const AT_POSITION = /at position (\d+)/;

/**
 * A digit followed by what only a number with a fraction or an exponent has there: `.` then a digit,
 * or `e`/`E` then a sign or a digit (JSON allows nothing else after them). The third character is no
 * help in finding a match, but it lets the regex engine skip ahead over prose: 1.4x faster over a
 * 19 KB tool list than `\d[.eE]` (issue 19).
 */
const DIGIT_THEN_FRACTION = /\d[.eE][-+\d]/g;
const NO_FLOATS: readonly number[] = [];

/**
 * The [start, end) offsets of the literals in the text that may be integral floats (`1.0`, `2e3`, which
 * JSON.parse makes ints), all of them or (`firstOnly`) the first: a digit followed by `.`, `e` or `E`
 * in a literal that JSON allows, whose value is an integer, in a number's place (past whitespace, `,`,
 * `[` or a key's `":`, a quote no backslash escapes). In valid JSON every integral float is one of
 * them. In a string that is prose like `release 2.0` or code like `price: 12.0` or `{\"x\": 1.0}`,
 * passed over; `, 2.0` in a string is taken for a number too, and marked (parseMarked) it ends the
 * string, where the mark's backslash is an error: the marked text then fails to parse, never reads
 * wrong. One native search, then a look around each match: a regex starting at each `:` and `,` took
 * four times as long as this.
 */
function integralFloatLiterals(text: string, firstOnly = false): number[] {
  const found: number[] = [];
  // A match passed over resumes after its third character: a digit there follows `.`, `e` or `E`, so
  // it starts no literal in a number's place, and no literal taken is skipped.
  DIGIT_THEN_FRACTION.lastIndex = 0;
  for (let m = DIGIT_THEN_FRACTION.exec(text); m !== null; m = DIGIT_THEN_FRACTION.exec(text)) {
    let i = m.index;
    for (let c = text.charCodeAt(i); (c >= 0x30 && c <= 0x39) || c === 0x2d; c = text.charCodeAt(--i));
    const from = i + 1;
    let to = m.index + 1;
    for (let c = text.charCodeAt(to); (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45; c = text.charCodeAt(++to));
    // 2.5 or 1e-3 (not an integer): JSON.parse reads it as Python does. `01.0` is no JSON number.
    const literal = text.slice(from, to);
    if (!Number.isInteger(Number(literal)) || !JSON_NUMBER.test(literal)) continue;
    let c = text.charCodeAt(i);
    while (isSpace(c)) c = text.charCodeAt(--i);
    if (c === 0x3a) {
      do c = text.charCodeAt(--i);
      while (isSpace(c));
      if (c !== 0x22) continue;
      let slashes = 0;
      while (text.charCodeAt(i - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 !== 0) continue;
    } else if (c !== 0x2c && c !== 0x5b && i >= 0) continue;
    found.push(from, to);
    if (firstOnly) break;
    DIGIT_THEN_FRACTION.lastIndex = to;
  }
  return found;
}

/** What frozenHeight finds (whether any number is an int) and is told (which containers to mark). */
interface Walk {
  ints: boolean;
  /** Containers while the depth left (`limit`) is above this are marked deeply frozen as they are frozen (the top ones). */
  markAbove: number;
  /** The text was read with its integral floats marked (parseMarked): each mark becomes its PyFloat. */
  marks: boolean;
  /** What those are marked with: a KnownEscapes when the text's escapes were listed. */
  mark?: true | KnownEscapes;
}

/**
 * Freezes a value JSON.parse just made and returns its height (1 for a container of scalars), or -1
 * when it nests past `limit` or holds an integer-like key (JSON.parse enumerates those first, so an
 * object holding one has one first; the reader keeps the text's order). Notes in `walk.ints` whether
 * it holds an int (which the text may have written as an integral float). The depth left is an
 * argument and each child is looked at in the loop: the walk ran at about a third more than a bare
 * walk and freeze with the depth kept in `walk` and a call per child.
 */
function frozenHeight(node: object, limit: number, walk: Walk): number {
  if (limit <= 0) return -1;
  let height = 0;
  const array = Array.isArray(node);
  if (array) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v === "object") {
        if (v === null) continue;
        const h = frozenHeight(v, limit - 1, walk);
        if (h < 0) return -1;
        if (h > height) height = h;
      } else if (typeof v === "number") {
        if (!walk.ints && Number.isInteger(v)) walk.ints = true;
      } else if (walk.marks && isFloatMark(v)) node[i] = floatOfMark(v);
    }
  } else {
    // for-in, not Object.keys: no array per object (a quarter of this walk). JSON.parse's objects inherit nothing enumerable.
    let first = true;
    for (const key in node) {
      if (first) {
        if (isIndexKey(key)) return -1;
        first = false;
      }
      const v: unknown = (node as Record<string, unknown>)[key];
      if (typeof v === "object") {
        if (v === null) continue;
        const h = frozenHeight(v, limit - 1, walk);
        if (h < 0) return -1;
        if (h > height) height = h;
      } else if (typeof v === "number") {
        if (!walk.ints && Number.isInteger(v)) walk.ints = true;
      } else if (walk.marks && isFloatMark(v)) {
        // defineProperty: plain assignment to "__proto__" would set the prototype instead.
        Object.defineProperty(node, key, { value: floatOfMark(v), enumerable: true, writable: true, configurable: true });
      }
    }
  }
  // Marked as it is frozen, not after: a private-field mark is added only while the object is extensible
  // (and an object JSON.parse just made has none yet: freezeNewMarked).
  if (limit <= walk.markAbove) Object.freeze(node);
  else if (array) freezeMarked(node, walk.mark);
  else freezeNewMarked(node, walk.mark ?? true);
  return height + 1;
}

/** The mark of a new array read from `text`: its escaped literals (KnownEscapes, for tojson) when escapedLiterals lists them. */
function escapesMark(text: string): true | KnownEscapes {
  const escaped = escapedLiterals(text);
  return escaped === undefined ? true : new KnownEscapes(escaped);
}

/** The text of [start, end): a copy where it is a small part of `text` (a view would keep all of it alive). */
function ownText(text: string, start: number, end: number): string {
  return 2 * (end - start) >= text.length ? text.slice(start, end) : flatCopy(text.slice(start, end));
}

/**
 * Freezes a value JSON.parse just made, every container in it, turning float marks into PyFloat on
 * the way (`marks`: the text had integral floats). Nothing in it is shared yet, so no container needs
 * the deep-frozen check freezeDeep makes; the root is recorded as deeply frozen when `root` (as it is
 * frozen: see freezeMarked), with `mark`.
 */
function freezeRead(node: unknown, marks: boolean, root = false, mark: true | KnownEscapes = true): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v === "object") freezeRead(v, marks);
      else if (marks && isFloatMark(v)) node[i] = floatOfMark(v);
    }
  } else {
    const obj = node as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      if (typeof v === "object") freezeRead(v, marks);
      // defineProperty: plain assignment to "__proto__" would set the prototype instead.
      else if (marks && isFloatMark(v)) Object.defineProperty(obj, key, { value: floatOfMark(v), enumerable: true, writable: true, configurable: true });
    }
  }
  if (root) freezeMarked(node, mark);
  else Object.freeze(node);
}

/** What the shared cache holds now: entries, characters of their text, and the bytes they are taken to hold. */
export function sharedJsonStats(): { entries: number; chars: number; bytes: number } {
  return { entries: keptEntries, chars: keptChars, bytes: keptBytes };
}
