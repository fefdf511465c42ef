/**
 * transformers' `{% generation %}` tracking (`return_assistant_tokens_mask`): each block records the
 * [start, end) of its text. As in transformers (`len("".join(rendered_blocks))` when the block runs),
 * start is the length of the top-level output so far, so a block inside a macro or `{% set %}` block
 * gets the offset of where that capture started, not of where its text lands.
 */
export interface GenerationSpan {
  start: number;
  end: number;
}

export class GenerationTracker {
  private counted = 0;
  private length = 0;
  constructor(
    private readonly root: readonly string[],
    readonly spans: GenerationSpan[],
  ) {}

  /** A block that printed `textLength` characters ran now. */
  record(textLength: number): void {
    // Amortised linear: each top-level piece is added to the running length once.
    for (; this.counted < this.root.length; this.counted++) this.length += this.root[this.counted]!.length;
    this.spans.push({ start: this.length, end: this.length + textLength });
  }
}
