/**
 * The `missing-opener` repair (compile-tolerances.ts): a JSON call object on its own line, the region's
 * opener left out and its closer written after it (`{"name": "f", "arguments": {...}}\n</tool_call>`).
 * The region opens at a `{` that starts a line and ends at the closer; this decoder reads the object
 * with the family's own JSON call reader and holds what it reports until the closer shows it was a
 * call. It lets the text go, as plain content and without an error, as soon as it can no longer be
 * one: no declared tool may be called, the reader fails or says the text can no longer be a call to an
 * accepted tool (mayBeCall), a call names a tool the request does not accept, or text other than
 * whitespace follows the object. An object the output ends after, without the closer, stays content.
 * So text is held only while it may still be such a call, as for a bare call (bare-call.ts).
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";

const HAS_TEXT = /\S/;

class ClosedBareCallDecoder implements PayloadDecoder {
  private readonly inner: PayloadDecoder;
  private readonly held: DecoderEvent[] = [];
  private readonly pieces: string[] = [];
  /** "reading" the object, "after" it (only whitespace so far), or "gone" (handed back). */
  private phase: "reading" | "after" | "gone" = "reading";

  constructor(
    inner: DecoderFactory,
    private readonly repair: { message: string; text: string },
    private readonly ctx: DecoderContext,
  ) {
    // Read as self-closing: the reader hands back what follows the object, which must be whitespace.
    this.inner = inner({ ...ctx, selfClosing: true });
  }

  push(text: string): DecoderEvent[] {
    if (this.phase === "gone") return [];
    this.pieces.push(text);
    if (this.ctx.declaredCallsPossible !== true) return this.letGo();
    if (this.phase === "after") return HAS_TEXT.test(text) ? this.letGo() : [];
    for (const e of this.inner.push(text)) {
      if (e.kind === "fail" || (e.kind === "call" && this.ctx.acceptsDeclared?.(e.name) !== true)) return this.letGo();
      if (e.kind === "close") {
        if (HAS_TEXT.test(e.rest)) return this.letGo();
        this.phase = "after";
      } else this.held.push(e);
    }
    return this.phase === "reading" && this.inner.mayBeCall?.() === false ? this.letGo() : [];
  }

  opaque(): boolean {
    return this.phase === "reading" && (this.inner.opaque?.() ?? false);
  }

  private letGo(): DecoderEvent[] {
    this.phase = "gone";
    return [{ kind: "close", rest: this.pieces.join("") }];
  }

  end(closed: boolean): DecoderEvent[] {
    // Without the closer (or handed back, or cut off inside the object) it is no call: the text is content.
    if (!closed || this.phase !== "after") return [];
    const done = this.held.findIndex((e) => e.kind === "done");
    if (done < 0) return [];
    return [...this.held.slice(0, done), { kind: "repaired", repair: "missing-opener", ...this.repair }, ...this.held.slice(done)];
  }
}

/** The decoder of a missing-opener region: `inner` reads the JSON call objects. */
export function closedBareCall(inner: DecoderFactory, repair: { message: string; text: string }): DecoderFactory {
  return (ctx: DecoderContext) => new ClosedBareCallDecoder(inner, repair, ctx);
}
