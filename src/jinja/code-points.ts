/**
 * Python's str is a sequence of code points; a JS string is UTF-16 units. Length, indexing and ordering
 * go through these so that an astral character (an emoji) counts once, as in Python.
 */
import { budget } from "./limits.js";

const SURROGATE = /[\uD800-\uDFFF]/;
const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;
/** Strings shorter than this are scanned without charging the budget (the common case stays a regex test). */
const FREE_SCAN = 4096;
export function hasSurrogates(s: string): boolean {
  if (s.length > FREE_SCAN) budget().scan(s.length);
  return SURROGATE.test(s);
}
/** Python's len(str): code points, so an emoji counts once. */
export function strLength(s: string): number {
  if (!hasSurrogates(s)) return s.length;
  // Each surrogate pair is one code point: remove the pairs natively and count what went.
  return s.length - (s.length - s.replace(SURROGATE_PAIRS, "").length) / 2;
}
/** A string as an array of code points (Python's indexing unit); the array is charged before it is made. */
export function codePoints(s: string): string[] {
  if (s.length > FREE_SCAN) budget().items(s.length);
  return hasSurrogates(s) ? Array.from(s) : s.split("");
}

/** Python's str comparison: by code point, not by UTF-16 unit. */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if ((x < 0xd800 || x > 0xdfff) && (y < 0xd800 || y > 0xdfff)) return x - y;
    return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
  }
  return a.length - b.length;
}
