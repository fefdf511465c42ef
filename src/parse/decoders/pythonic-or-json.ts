/**
 * LFM2's calls: Python calls or JSON call objects, told apart by the first item (see
 * pythonicOrJsonCalls). The Python side is the call-list decoder (pythonic.ts).
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";
import { pythonicCalls } from "./pythonic.js";
import { skipSpace } from "./step-decoder.js";

/**
 * LFM2 writes Python calls, `[f(a=1)]`, but sometimes JSON call objects, `[{"name": "f", "arguments":
 * {...}}]` or a bare object; the first item's first character tells them apart. Leading text is held
 * until it does, then everything goes to the chosen decoder.
 */
export function pythonicOrJsonCalls(json: DecoderFactory): DecoderFactory {
  return (ctx: DecoderContext) => new FirstItemDispatch(ctx, json);
}

class FirstItemDispatch implements PayloadDecoder {
  private lead = "";
  private inner: PayloadDecoder | undefined;

  constructor(
    private readonly ctx: DecoderContext,
    private readonly json: DecoderFactory,
  ) {}

  push(text: string): DecoderEvent[] {
    if (this.inner) return this.inner.push(text);
    const all = this.lead + text;
    let i = skipSpace(all, 0);
    if (all[i] === "[") i = skipSpace(all, i + 1);
    if (i >= all.length) {
      this.lead = all;
      return [];
    }
    this.lead = "";
    this.inner = (all[i] === "{" ? this.json : pythonicCalls)(this.ctx);
    return this.inner.push(all);
  }

  /** Once chosen, the inner decoder gets every call unchanged (`lead` is empty from then on). */
  forwardsTo(): PayloadDecoder | undefined {
    return this.inner;
  }

  end(closed: boolean): DecoderEvent[] {
    if (!this.inner) this.inner = pythonicCalls(this.ctx);
    const out = this.lead === "" ? [] : this.inner.push(this.lead);
    return [...out, ...this.inner.end(closed)];
  }
}
