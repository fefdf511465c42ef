/**
 * Where the deep-frozen marks are kept (what a mark holds: tojson.ts, FrozenTexts). A value marked while
 * it is still extensible carries its mark in a private field, added by the base-class constructor's
 * return trick; a value frozen before it was marked (by a caller), and any array, has its mark in a
 * WeakMap.
 *
 * Why not the WeakMap for all: readSharedJson marks every value it reads, and adding a new object to a
 * big WeakMap cost 300-700 ns, its entry an ephemeron the GC must trace again and again (issue 19: 6% of
 * a cold render's self time, and part of the GC's 17%). A private field cost 70-200 ns to add and a few
 * ns to test, and is an ordinary property to the GC. It is invisible: Object.keys, Reflect.ownKeys,
 * JSON.stringify, structuredClone and a template's attribute access do not see it.
 *
 * Not on arrays: with the tool and message lists stamped too, the same text read and rendered again
 * measured 2% slower than with the WeakMap only (one process, builds alternated; the old build against
 * a copy of itself 0.3%), with only their items and other objects stamped 1%, and the share-nothing
 * row gains as much either way (a request has a few arrays and dozens of objects).
 *
 * Only while extensible: TC39's "non-extensible applies to private" makes adding a private field to a
 * non-extensible object throw (a future V8); writing a field the object already has stays allowed, so
 * a stamped value's texts can change after it is frozen.
 */
export type FrozenTexts = boolean | string | Map<string, string> | KnownEscapes;

/**
 * The mark of a value not yet printed (as `true`) that was read from JSON text whose string literals
 * with an escape in them decode to `escaped` (readSharedJson): every other string in it needs no
 * escape in tojson (a `"`, `\` or control character can only come from an escape), so tojson skips
 * the escape test for them (issue 19: the test was 8% of a new request's render).
 */
export class KnownEscapes {
  /**
   * Bit `n % 32` set for each listed string of length n: tojson tests this before the list, so most
   * strings (none of those lengths) cost one test, as for an empty list. One list is shared by every
   * item of the array read, and one escaped literal in one tool (a `\\d` pattern) made every string
   * of all 21 tools look through it (issue 19: about 1 us of a cold render's 16 us of tojson).
   */
  readonly lengths: number;
  constructor(readonly escaped: readonly string[]) {
    let lengths = 0;
    for (const s of escaped) lengths |= 1 << (s.length & 31);
    this.lengths = lengths;
  }
}

/** Returns the object it is given: `new` of a subclass then adds the subclass's fields to that object. */
class ReturnsItsArgument {
  constructor(value: object) {
    return value as ReturnsItsArgument;
  }
}

class Stamp extends ReturnsItsArgument {
  #texts: FrozenTexts;

  constructor(value: object, texts: FrozenTexts = true) {
    super(value);
    this.#texts = texts;
  }

  static get(value: object): FrozenTexts | undefined {
    return #texts in value ? (value as Stamp).#texts : undefined;
  }

  /** False when `value` has no stamp (then nothing is written). */
  static write(value: object, texts: FrozenTexts): boolean {
    if (!(#texts in value)) return false;
    (value as Stamp).#texts = texts;
    return true;
  }

  static has(value: object): boolean {
    return #texts in value;
  }
}

const UNSTAMPED = new WeakMap<object, FrozenTexts>();

/** Whether `value` is marked deeply frozen. */
export function isMarked(value: object): boolean {
  return Stamp.has(value) || UNSTAMPED.has(value);
}

/** The mark of `value`, undefined when it has none. */
export function markOf(value: object): FrozenTexts | undefined {
  return Stamp.get(value) ?? UNSTAMPED.get(value);
}

/** Sets the mark of `value` (stamped if it is an extensible object, not an array). */
export function setMark(value: object, texts: FrozenTexts): void {
  if (Stamp.write(value, texts)) return;
  if (!Array.isArray(value) && Object.isExtensible(value)) new Stamp(value, texts);
  else UNSTAMPED.set(value, texts);
}

/** Marks `value` deeply frozen and freezes it: its caller froze everything inside it. Stamped first, while it can be. */
export function freezeMarked<T extends object>(value: T, mark: true | KnownEscapes = true): T {
  setMark(value, mark);
  return Object.freeze(value);
}

/**
 * freezeMarked for an object (not an array) that is new, extensible and has no mark yet (JSON.parse
 * just made it): stamped at once, without the tests setMark makes (readSharedJson's walk marks a
 * request's tools and messages so, a third of what marking them cost).
 */
export function freezeNewMarked(value: object, mark: true | KnownEscapes): void {
  new Stamp(value, mark);
  Object.freeze(value);
}
