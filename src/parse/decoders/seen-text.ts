/**
 * What a decoder has been pushed, addressed by offsets from the region's first payload character.
 * When the engine offers `regionText` (it keeps the region's text anyway, for failures), slices come
 * from there and the decoder keeps no copy; otherwise the decoder keeps its own (a rope, so that many
 * small pushes stay cheap). Either way, nothing is copied per push: a long argument is sliced once,
 * when its call ends.
 */
import type { DecoderContext } from "../decoder.js";
import { TextRope } from "../rope.js";

export class SeenText {
  /** Offset of the current push's first character. */
  base = 0;
  /** Characters pushed so far. */
  total = 0;
  private readonly own: TextRope | undefined;

  constructor(
    private readonly source: DecoderContext["regionText"],
    private readonly sourcePieces?: DecoderContext["regionPieces"],
  ) {
    this.own = source === undefined ? new TextRope() : undefined;
  }

  /** Call once per push, before reading `text`. */
  begin(text: string): void {
    this.base = this.total;
    this.total += text.length;
    if (this.own !== undefined) this.own.append(text);
  }

  slice(from: number, to: number): string {
    return this.source ? this.source(from, to) : this.own!.slice(from, to);
  }

  /** The same text as slice, as stored pieces (one piece when the source cannot tell them). */
  pieces(from: number, to: number): string[] {
    if (this.own !== undefined) return this.own.pieces(from, to);
    return this.sourcePieces ? this.sourcePieces(from, to) : [this.source!(from, to)];
  }
}

/** A context whose region text starts `shift` characters later (a decoder nested after a header). */
export function shifted(ctx: DecoderContext, shift: number): DecoderContext {
  const source = ctx.regionText;
  const pieces = ctx.regionPieces;
  if (source === undefined) return ctx;
  const out: DecoderContext = { ...ctx, regionText: (from, to) => source(from + shift, to + shift) };
  if (pieces !== undefined) out.regionPieces = (from, to) => pieces(from + shift, to + shift);
  return out;
}
