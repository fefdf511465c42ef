/**
 * Calls written outside the family's markers, read only when there is no doubt: the `bare-call`
 * repair (compile-tolerances.ts), a whole completion that is exactly one call naming a declared tool
 * in one of the family's own call syntaxes (a JSON call object `{"name": "Bash", "arguments": {...}}`
 * from a model that should have written `<tool_call>` around it, or a JSON list of them, or a Python
 * call `f(a=1)` from a model that should have written `[f(a=1)]`), and the regions of the `fence`
 * (`anywhere`) and `wrapper-tag` repairs, a fence or tags the format does not have around exactly
 * such calls, and the `missing-opener` repair's call object confirmed by the closer after it. The
 * region opens where such a call (or its fence, its tag) may start; this decoder reads
 * it with the family's own decoder of that syntax and holds everything it reports until it knows the
 * text is such a call.
 *
 * It lets the text go, as plain content and without an error, as soon as it can no longer be such a
 * call: no declared tool may be called, the inner decoder fails or says the text can no longer be a
 * call to an accepted tool (mayBeCall: a key no call object has, a name no accepted tool's name starts
 * with), a call names a tool the request does not accept, or (whole-output mode) any text follows the
 * call. It reports the calls and the repair only once the text is known to be calls: at the end of the
 * output with nothing but whitespace after the call (whole-output mode), or when the region ends
 * (the inner decoder closes it, or its end marker comes) with nothing in it but calls. The engine then
 * accepts and validates them like any other, so arguments that do not validate leave the text in
 * content with its error. So text is held only while it may still be such a call: prose that starts
 * with a word goes at the first character that cannot continue an accepted name.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";

const HAS_TEXT = /\S/;

type Repaired = Extract<DecoderEvent, { kind: "repaired" }>;

/**
 * `output`: the call must be the whole output (the region is self-closing; text after it lets it go);
 * `region`: the calls must be the region's whole text (up to the inner decoder's close or the region's
 * end marker), text around the region is the output's business; `closer`: the call object must be
 * followed, after whitespace only, by the region's end marker (the `missing-opener` repair: the closer
 * is what shows it was a call; an output that ends without it leaves the object in content).
 */
export type HeldUntil = "output" | "region" | "closer";

class HeldCallDecoder implements PayloadDecoder {
  private readonly inner: PayloadDecoder;
  /** What the inner decoder reported, held until the text is known to be calls. */
  private readonly held: DecoderEvent[] = [];
  /** The text pushed so far (handed back whole when it is no call). */
  private readonly pieces: string[] = [];
  /** "reading" the call, "after" it (only whitespace so far), "gone" (handed back) or "done" (reported). */
  private phase: "reading" | "after" | "gone" | "done" = "reading";

  constructor(
    inner: DecoderFactory,
    /** The repair to report with the first call; its `text` defaults to the whole text read. Absent: the inner decoder reports its own. */
    private readonly repair: Omit<Repaired, "kind" | "text"> & { text?: string } | undefined,
    private readonly until: HeldUntil,
    private readonly ctx: DecoderContext,
  ) {
    // Read as self-closing when the end marker must follow the object: the reader hands back what
    // follows it, which must be whitespace.
    this.inner = inner(until === "closer" ? { ...ctx, selfClosing: true } : ctx);
  }

  push(text: string): DecoderEvent[] {
    if (this.phase === "gone" || this.phase === "done") return [];
    this.pieces.push(text);
    if (this.ctx.declaredCallsPossible !== true) return this.letGo();
    if (this.phase === "after") return HAS_TEXT.test(text) ? this.letGo() : [];
    for (const e of this.inner.push(text)) {
      if (e.kind === "fail" || (e.kind === "call" && this.ctx.acceptsDeclared?.(e.name) !== true)) return this.letGo();
      if (e.kind === "close") {
        if (this.until === "region") {
          this.phase = "done";
          return [...this.release(), e];
        }
        if (HAS_TEXT.test(e.rest)) return this.letGo();
        this.phase = "after";
      } else this.held.push(e);
    }
    return this.phase === "reading" && this.inner.mayBeCall?.() === false ? this.letGo() : [];
  }

  opaque(): boolean {
    return this.phase === "reading" && (this.inner.opaque?.() ?? false);
  }

  /** Not a call: all the text goes back to the engine, to be read as content. */
  private letGo(): DecoderEvent[] {
    this.phase = "gone";
    return [{ kind: "close", rest: this.pieces.join("") }];
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.until === "closer" && !closed) return [];
    if (this.until === "region" && this.phase === "reading") {
      const last = this.inner.end(closed);
      if (last.some((e) => e.kind === "fail" || (e.kind === "call" && this.ctx.acceptsDeclared?.(e.name) !== true))) return [];
      this.held.push(...last.filter((e) => e.kind !== "close"));
      this.phase = "after";
    }
    // Cut off inside the call (or handed back): no call was made, the text stays content.
    if (this.phase !== "after") return [];
    this.phase = "done";
    return this.release();
  }

  /** The held events, with the repair before the first call's `done` (the engine keeps it only if that call validates); none without a call. */
  private release(): DecoderEvent[] {
    const done = this.held.findIndex((e) => e.kind === "done");
    if (done < 0) return [];
    if (this.repair === undefined) return this.held;
    const repaired: Repaired = { kind: "repaired", ...this.repair, text: this.repair.text ?? this.pieces.join("").trim() };
    return [...this.held.slice(0, done), repaired, ...this.held.slice(done)];
  }
}

/**
 * A decoder that holds what `inner` reads until it is known to be calls (see HeldUntil), reporting
 * `repair` with the first call (undefined: `inner` reports its own repair).
 */
export function heldCall(inner: DecoderFactory, repair: Omit<Repaired, "kind" | "text"> & { text?: string } | undefined, until: HeldUntil): DecoderFactory {
  return (ctx: DecoderContext) => new HeldCallDecoder(inner, repair, until, ctx);
}

/** The decoder of the bare-call region: `inner` reads the call syntax, `message` is the repair's. */
export function bareCall(inner: DecoderFactory, message: string): DecoderFactory {
  return heldCall(inner, { repair: "bare-call", message }, "output");
}

/** The decoder of a missing-opener region: `inner` reads the JSON call objects, the end marker must follow. */
export function closedBareCall(inner: DecoderFactory, repair: { message: string; text: string }): DecoderFactory {
  return heldCall(inner, { repair: "missing-opener", ...repair }, "closer");
}
