/** Escaping literal text for regular expressions built at run time (marker scanners, text search). */

/** `s` as a pattern that matches exactly `s`. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** One character as it is written inside a `[...]` class. */
export function escapeClass(ch: string): string {
  return /[\]\\^-]/.test(ch) ? `\\${ch}` : ch;
}
