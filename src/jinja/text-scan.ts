/**
 * Regex work on strings of any size that a render can stop in time. V8's `replace(re, fn)` finds every
 * match before it calls fn once (20 M matches are gigabytes and seconds nobody can interrupt), and a
 * `\p{...}` class scans a few tens of MB per second: so replacements run as an exec loop with a step per
 * match, and tests over long strings run in chunks, each charged before it is scanned.
 */
import { flatCopy } from "../flat-copy.js";
import { budget } from "./limits.js";

/** Pieces are joined every this many, so no list of every piece is ever held. */
const PIECES = 4096;
/** Long strings are tested this many code units at a time. */
const CHUNK = 1 << 20;
/** A `\p{...}` class costs about one step per this many code units. */
const UNITS_PER_STEP_UNICODE = 4;

/** `s.replace(re, fn)` for a global regex; fn gets the match. Returns s itself when nothing matched. */
export function replaceEach(s: string, re: RegExp, fn: (m: RegExpExecArray) => string): string {
  const b = budget();
  re.lastIndex = 0;
  const chunks: string[] = [];
  let pieces: string[] = [];
  let last = 0;
  let matched = false;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    b.step();
    matched = true;
    if (m.index > last) pieces.push(s.slice(last, m.index));
    pieces.push(fn(m));
    last = m.index + m[0].length;
    if (m[0].length === 0) re.lastIndex += re.unicode && (s.codePointAt(last) ?? 0) > 0xffff ? 2 : 1;
    if (pieces.length >= PIECES) {
      chunks.push(pieces.join(""));
      pieces = [];
    }
  }
  if (!matched) return s;
  pieces.push(s.slice(last));
  chunks.push(pieces.join(""));
  return chunks.length === 1 ? chunks[0]! : chunks.join("");
}

/** Whether `re` (a non-global test for one character class) matches anywhere in s, charged per chunk. */
export function anyMatch(s: string, re: RegExp, unicodeClass = true): boolean {
  const b = budget();
  const weight = unicodeClass ? UNITS_PER_STEP_UNICODE : 64;
  if (s.length <= CHUNK) {
    if (s.length > 4096) b.steps_(s.length / weight);
    return re.test(s);
  }
  // Slicing a concatenation (a rope) flattens all of it each time: flatten once, then slice the copy.
  s = flatCopy(s);
  for (let i = 0; i < s.length; ) {
    let end = Math.min(s.length, i + CHUNK);
    // Never cut a surrogate pair in two.
    const c = s.charCodeAt(end - 1);
    if (c >= 0xd800 && c <= 0xdbff && end < s.length) end++;
    b.steps_((end - i) / weight);
    if (re.test(s.slice(i, end))) return true;
    i = end;
  }
  return false;
}
