/**
 * The marker lexer: finds the next marker of a fixed set in a text, or says where a suffix must be held
 * back because it could still grow into a marker. The engine builds one MarkerSet per parser state
 * (precomputed once per format), so only the markers live in the current state are looked for.
 *
 * Cost: a native regex scan for the markers' first characters, then a startsWith per candidate marker
 * at each hit, so a scan is linear in the text scanned.
 */
import { escapeClass } from "../regexp-escape.js";

export interface MarkerHit {
  index: number;
  marker: string;
}

export type ScanResult =
  /** A complete marker at `index` (the longest one there, when one marker is a prefix of another). */
  | { kind: "marker"; index: number; marker: string }
  /** No marker is complete yet, but the text from `index` on is a prefix of one: hold it back. */
  | { kind: "hold"; index: number }
  /** Nothing from `from` on can be or become a marker. */
  | { kind: "none" };

/** Shared: "nothing found" is the common answer, and needs no allocation (compare with ===). */
export const NO_MARKER: ScanResult = Object.freeze({ kind: "none" });

/** Whether `text` from `i` to its end is a prefix of `marker` (compared in place, no slice). */
function isPrefixAt(marker: string, text: string, i: number): boolean {
  for (let k = i; k < text.length; k++) if (text.charCodeAt(k) !== marker.charCodeAt(k - i)) return false;
  return true;
}

export class MarkerSet {
  readonly markers: readonly string[];
  private readonly byFirst = new Map<string, string[]>();
  private readonly firstChars: RegExp | undefined;
  /** The markers' first character when they all share one (`<` for most formats): found with indexOf. */
  readonly first: string | undefined;
  /** The longest marker's length. */
  private readonly longest: number;

  constructor(markers: Iterable<string>) {
    // Longest first, so the first complete match at a position is the longest.
    this.markers = [...new Set(markers)].filter((m) => m.length > 0).sort((a, b) => b.length - a.length);
    for (const m of this.markers) {
      const first = m[0]!;
      const list = this.byFirst.get(first) ?? [];
      list.push(m);
      this.byFirst.set(first, list);
    }
    const chars = [...this.byFirst.keys()];
    this.firstChars = chars.length > 0 ? new RegExp(`[${chars.map(escapeClass).join("")}]`, "g") : undefined;
    this.first = chars.length === 1 ? chars[0] : undefined;
    this.longest = this.markers.length > 0 ? this.markers[0]!.length : 0;
  }

  get empty(): boolean {
    return this.markers.length === 0;
  }

  /**
   * Scans `text` from `from`. `final`: no more text will come, so partial markers are not held.
   */
  scan(text: string, from: number, final = false): ScanResult {
    const re = this.firstChars;
    if (re === undefined) return NO_MARKER;
    const only = this.first;
    // indexOf is much cheaper than a regex exec on the short texts of a streaming push.
    let i = only !== undefined ? text.indexOf(only, from) : this.nextFirst(re, text, from);
    for (; i >= 0; i = only !== undefined ? text.indexOf(only, i + 1) : this.nextFirst(re, text, i + 1)) {
      const candidates = this.byFirst.get(text[i]!)!;
      let partial = false;
      for (const marker of candidates) {
        if (text.startsWith(marker, i)) {
          // A longer marker that is still only partially present wins the hold (e.g. the ignored
          // `<|message_sep|>` vs GigaChat's `<|message_sep|>\n\nfunction call<|role_sep|>`).
          if (partial && !final) return { kind: "hold", index: i };
          return { kind: "marker", index: i, marker };
        }
        if (!final && text.length - i < marker.length && isPrefixAt(marker, text, i)) partial = true;
      }
      if (partial) return { kind: "hold", index: i };
    }
    return NO_MARKER;
  }

  /**
   * Where the longest tail of `text` that is a proper prefix of some marker starts, or -1: what `scan`
   * holds back at the end of a text that holds no complete marker. Only the last `longest - 1`
   * characters are looked at, so a streaming push pays for its tail, not for its length.
   */
  tailStart(text: string): number {
    const n = text.length;
    const from = Math.max(0, n - this.longest + 1);
    const only = this.first;
    if (only !== undefined) {
      // One native search: most tails hold no first character of a marker at all.
      for (let i = text.indexOf(only, from); i >= 0; i = text.indexOf(only, i + 1)) if (this.partialAt(text, i, this.markers)) return i;
      return -1;
    }
    for (let i = from; i < n; i++) {
      const candidates = this.byFirst.get(text[i]!);
      if (candidates !== undefined && this.partialAt(text, i, candidates)) return i;
    }
    return -1;
  }

  /** Whether `text` from `i` to its end is a proper prefix of one of `markers`. */
  private partialAt(text: string, i: number, markers: readonly string[]): boolean {
    for (let k = 0; k < markers.length; k++) {
      const m = markers[k]!;
      if (text.length - i < m.length && isPrefixAt(m, text, i)) return true;
    }
    return false;
  }

  /** The index of the next character at or after `from` that starts some marker, or -1. */
  private nextFirst(re: RegExp, text: string, from: number): number {
    re.lastIndex = from;
    const m = re.exec(text);
    return m === null ? -1 : m.index;
  }
}
