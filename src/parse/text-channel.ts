/**
 * The whitespace rule for text outside calls (also in docs/parsing.md): content and reasoning are
 * verbatim, except that a whitespace-only run between two boundaries is dropped. Boundaries are the
 * start and end of the output, a valid call, and the markers that open or close a reasoning block.
 * So `"\n<tool_call>...</tool_call>\n\n<tool_call>...</tool_call>\n"` has no content, while
 * `"Hi\n<tool_call>..."` has content `"Hi\n"` and `"</think>\n\nHello"` has content `"\n\nHello"`.
 *
 * Whitespace right after a boundary is held, and released as soon as text shows it is kept, so
 * streaming never retracts anything.
 */
const ALL_WS = /^\s*$/;

export class TextChannel {
  private atBoundary = true;
  private held = "";

  constructor(private readonly emit: (text: string) => void) {}

  text(s: string): void {
    if (s === "") return;
    if (this.atBoundary) {
      if (ALL_WS.test(s)) {
        this.held += s;
        return;
      }
      s = this.held + s;
      this.held = "";
      this.atBoundary = false;
    }
    this.emit(s);
  }

  /** The text of something that did not become a call: kept exactly, with the whitespace before it. */
  verbatim(s: string): void {
    if (s === "") return;
    this.emit(this.held + s);
    this.held = "";
    this.atBoundary = false;
  }

  /** Nothing but whitespace since the last boundary. */
  get blank(): boolean {
    return this.atBoundary;
  }

  /** A boundary: whitespace held since the last one was only a separator. */
  boundary(): void {
    this.held = "";
    this.atBoundary = true;
  }
}
