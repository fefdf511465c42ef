/**
 * The `bare-call` repair (compile-tolerances.ts): a whole completion that is exactly one call naming a
 * declared tool, the family's markers missing, in one of the family's own call syntaxes: a JSON call
 * object (`{"name": "Bash", "arguments": {...}}` from a model that should have written `<tool_call>`
 * around it) or a JSON list of them, or a Python call (`f(a=1)` from a model that should have written
 * `[f(a=1)]`). The region opens where such a call may start at the start of the output (`{`, a name's
 * first character); this decoder reads it with the family's own decoder of that syntax and holds
 * everything it reports until it knows the call is the whole output.
 *
 * It lets the text go, as plain content and without an error, as soon as it can no longer be such a
 * call: no declared tool may be called, the inner decoder fails or says the text can no longer be a
 * call to an accepted tool (mayBeCall: a key no call object has, a name no accepted tool's name starts
 * with), a call names a tool the request does not accept, or any text follows the call. Only at the
 * end of the output, with nothing but whitespace after the call, does it report the call (which the
 * engine then accepts and validates like any other, so arguments that do not validate leave the text
 * in content with its error) and the repair. So text is held only while it may still be such a call:
 * prose that starts with a word goes at the first character that cannot continue an accepted name.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";

const HAS_TEXT = /\S/;

class BareCallDecoder implements PayloadDecoder {
  private readonly inner: PayloadDecoder;
  /** What the inner decoder reported, held until the end of the output. */
  private readonly held: DecoderEvent[] = [];
  /** The text pushed so far (handed back whole when it is no call). */
  private readonly pieces: string[] = [];
  /** "reading" the call, "after" it (only whitespace so far), or "gone" (handed back). */
  private phase: "reading" | "after" | "gone" = "reading";

  constructor(
    inner: DecoderFactory,
    private readonly message: string,
    private readonly ctx: DecoderContext,
  ) {
    // The region is self-closing: the inner decoder hands back what follows the call, which tells whether it is alone.
    this.inner = inner(ctx);
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

  /** Not a bare call: all the text goes back to the engine, to be read as content. */
  private letGo(): DecoderEvent[] {
    this.phase = "gone";
    return [{ kind: "close", rest: this.pieces.join("") }];
  }

  end(): DecoderEvent[] {
    // Cut off inside the call (or handed back): no call was made, the text stays content.
    if (this.phase !== "after") return [];
    const done = this.held.findIndex((e) => e.kind === "done");
    if (done < 0) return [];
    const text = this.pieces.join("").trim();
    // The repair belongs to the first call (the engine keeps it only if that call validates).
    return [...this.held.slice(0, done), { kind: "repaired", repair: "bare-call", message: this.message, text }, ...this.held.slice(done)];
  }
}

/** The decoder of the bare-call region: `inner` reads the call syntax, `message` is the repair's. */
export function bareCall(inner: DecoderFactory, message: string): DecoderFactory {
  return (ctx: DecoderContext) => new BareCallDecoder(inner, message, ctx);
}
