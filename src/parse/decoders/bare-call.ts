/**
 * The `bare-call` repair (compile-tolerances.ts): a whole completion that is exactly one JSON call
 * object naming a declared tool, the family's markers missing (`{"name": "Bash", "arguments": {...}}`
 * from a model that should have written `<tool_call>` around it), or a JSON list of such calls. The region opens at a `{` that starts
 * the output (like llama3-json's bare calls); this decoder reads it with the family's JSON call decoder
 * and holds everything it reports until it knows the object is the whole output.
 *
 * It lets the text go, as plain content and without an error, as soon as it can no longer be such a
 * call: no declared tool may be called, a key no call object has, a name the request does not accept,
 * an object that does not read as a call, or any text after the object. Only at the end of the output,
 * with nothing but whitespace after the object, does it report the call (which the engine then accepts
 * and validates like any other, so arguments that do not validate leave the text in content with its
 * error) and the repair. So text that does not start with `{` is never held, and text that does is held
 * only while it may still be such a call.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import type { JsonCallsOptions } from "./json-calls.js";
import { JsonCallsDecoder } from "./json-calls.js";

const HAS_TEXT = /\S/;

class BareCallDecoder implements PayloadDecoder {
  private readonly inner: JsonCallsDecoder;
  /** What the inner decoder reported, held until the end of the output. */
  private readonly held: DecoderEvent[] = [];
  /** The text pushed so far (handed back whole when it is no call). */
  private readonly pieces: string[] = [];
  /** "reading" the object, "after" it (only whitespace so far), or "gone" (handed back). */
  private phase: "reading" | "after" | "gone" = "reading";

  constructor(
    opts: JsonCallsOptions,
    private readonly missing: readonly string[],
    private readonly ctx: DecoderContext,
  ) {
    // Self-closing: the inner decoder hands back what follows the object, which tells whether it is alone.
    this.inner = new JsonCallsDecoder(opts, true, ctx);
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
    return this.phase === "reading" && !this.inner.mayBeCall() ? this.letGo() : [];
  }

  /** Not a bare call: all the text goes back to the engine, to be read as content. */
  private letGo(): DecoderEvent[] {
    this.phase = "gone";
    return [{ kind: "close", rest: this.pieces.join("") }];
  }

  end(): DecoderEvent[] {
    // Cut off inside the object (or handed back): no call was made, the text stays content.
    if (this.phase !== "after") return [];
    const done = this.held.findIndex((e) => e.kind === "done");
    if (done < 0) return [];
    const text = this.pieces.join("").trim();
    const message = `a completion that is only JSON call objects, without ${JSON.stringify(this.missing[0] ?? "")}, read as calls`;
    // The repair belongs to the first call (the engine keeps it only if that call validates).
    return [...this.held.slice(0, done), { kind: "repaired", repair: "bare-call", message, text }, ...this.held.slice(done)];
  }
}

/** The decoder of the bare-call region: `missing` are the region starts the model left out. */
export function bareCall(opts: JsonCallsOptions, missing: readonly string[]): DecoderFactory {
  return (ctx: DecoderContext) => new BareCallDecoder(opts, missing, ctx);
}
