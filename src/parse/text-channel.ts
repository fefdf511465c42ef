/**
 * The whitespace rule for text outside calls (also in docs/parsing.md):
 *
 * - Content is verbatim, except that a whitespace-only run between two boundaries is dropped. The
 *   boundaries are: the start of the output, a valid call, the end of a reasoning block, and the end
 *   of the output. So `"\n<tool_call>...</tool_call>\n\n<tool_call>...</tool_call>\n"` has no content,
 *   while `"Hi\n<tool_call>..."` has content `"Hi\n"`. After a reasoning block, the leading whitespace
 *   of the answer is dropped too (`</think>\n\nHello` gives `Hello`): templates put it there.
 * - Reasoning drops its leading and trailing whitespace (`<think>\nI see\n</think>` gives `I see`),
 *   as the templates that render reasoning back strip it.
 *
 * Whitespace that might be dropped is held, and released as soon as text shows it is kept, so
 * streaming never retracts anything.
 */
import type { DeltaSink } from "./deltas.js";

const ALL_WS = /^\s*$/;

export class ContentChannel {
  private atBoundary = true;
  private dropLeading = false;
  private held = "";

  constructor(private readonly sink: DeltaSink) {}

  text(s: string): void {
    if (s === "") return;
    if (this.atBoundary) {
      if (ALL_WS.test(s)) {
        if (!this.dropLeading) this.held += s;
        return;
      }
      s = this.dropLeading ? s.trimStart() : this.held + s;
      this.held = "";
      this.atBoundary = false;
      this.dropLeading = false;
    }
    this.sink.content(s);
  }

  /** A call or the end of the output: held whitespace was only a separator. */
  boundary(): void {
    this.held = "";
    this.atBoundary = true;
    this.dropLeading = false;
  }

  /** A reasoning block ended: the answer's leading whitespace is dropped. */
  afterReasoning(): void {
    this.held = "";
    this.atBoundary = true;
    this.dropLeading = true;
  }

  /** True while nothing but whitespace has been seen since the last boundary. */
  get blank(): boolean {
    return this.atBoundary;
  }
}

export class ReasoningChannel {
  private atStart = true;
  private held = "";

  constructor(private readonly sink: DeltaSink) {}

  /** A reasoning block opens: its leading whitespace is dropped. */
  open(): void {
    this.atStart = true;
    this.held = "";
  }

  text(s: string): void {
    if (this.atStart) {
      s = s.trimStart();
      if (s === "") return;
      this.atStart = false;
    }
    const body = s.trimEnd();
    if (body === "") {
      this.held += s;
      return;
    }
    this.sink.reasoning(this.held + body);
    this.held = s.slice(body.length);
  }

  /** The block ended (or the output did): trailing whitespace is dropped. */
  close(): void {
    this.held = "";
    this.atStart = true;
  }
}
