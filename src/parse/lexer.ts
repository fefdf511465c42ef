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

  /** The index of the next character at or after `from` that starts some marker, or -1. */
  private nextFirst(re: RegExp, text: string, from: number): number {
    re.lastIndex = from;
    const m = re.exec(text);
    return m === null ? -1 : m.index;
  }
}
