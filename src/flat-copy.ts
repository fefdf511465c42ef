/**
 * A string of its own, flat: `(" " + s).slice(1)` makes V8 copy the characters. A concatenation is a
 * rope (every later slice or character read walks it) and a slice is a view that keeps the whole string
 * it came from alive; the copy is neither. One helper for the places that need that (tojson's kept
 * texts, readSharedJson's kept arrays, the prompt end a template keeps, repeat(), chunked scans).
 */
export function flatCopy(s: string): string {
  return (" " + s).slice(1);
}
