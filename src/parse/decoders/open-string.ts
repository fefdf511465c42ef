/**
 * Whether a JSON string a decoder is reading is still open, for PayloadDecoder.opaque: a region end
 * marker inside an open string (`{"a": "x</tool_call>y"}`) belongs to the string. A JSON string cannot
 * hold a raw newline, so one that does is broken: the model is no longer writing a string, and an end
 * marker after that counts (a malformed call must not swallow the rest of the output).
 *
 * The check reads each character once: it remembers how far it looked for the string it is asked about.
 */
import type { SeenText } from "./seen-text.js";

export class OpenString {
  private at = -1;
  private checkedTo = 0;
  private broken = false;

  constructor(private readonly seen: SeenText) {}

  /** The string whose quote is at offset `at` of `seen` runs to the end of the text pushed so far. */
  open(at: number): boolean {
    if (at !== this.at) {
      this.at = at;
      this.checkedTo = at;
      this.broken = false;
    }
    if (!this.broken && this.checkedTo < this.seen.total) {
      this.broken = this.seen.slice(this.checkedTo, this.seen.total).includes("\n");
      this.checkedTo = this.seen.total;
    }
    return !this.broken;
  }

  /**
   * Right after `open` said the string is open: the text pushed since holds no newline either, so it
   * need not be looked at again.
   */
  clean(): void {
    this.checkedTo = this.seen.total;
  }
}
