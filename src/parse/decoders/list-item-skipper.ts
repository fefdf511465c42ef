/**
 * Where a failed list item of the call-list decoder (pythonic.ts) ends, so that the item fails alone
 * and the calls after it are still read.
 */

/** After this many failed items in one list the rest of the list is one failure (no item-by-item cost). */
export const MAX_FAILED_ITEMS = 64;

/**
 * Finds where a list item ends in text that is not a valid literal: strings (either quote, backslash
 * escapes) and brackets are tracked, nothing else is read. The item ends after the bracket that closes
 * its first one, or before a `,` or `]` outside any bracket. Fed piece by piece, one pass per character.
 */
export class ItemSkipper {
  private depth = 0;
  private quote = "";
  private escape = false;
  private opened = false;

  /** Reads `s` from `i`; returns the index where the item ends, or -1 if it goes on past `s`. */
  feed(s: string, i: number): number {
    for (let k = i; k < s.length; k++) {
      const c = s[k]!;
      if (this.quote !== "") {
        if (this.escape) this.escape = false;
        else if (c === "\\") this.escape = true;
        else if (c === this.quote) this.quote = "";
        continue;
      }
      if (c === "'" || c === '"') this.quote = c;
      else if (c === "(" || c === "[" || c === "{") {
        this.depth++;
        this.opened = true;
      } else if (c === ")" || c === "]" || c === "}") {
        if (this.depth === 0) return k;
        this.depth--;
        if (this.depth === 0 && this.opened) return k + 1;
      } else if (c === "," && this.depth === 0) return k;
    }
    return -1;
  }
}
