/**
 * Picks a decoder by the first non-whitespace character of the payload: Mistral writes either a JSON
 * array (`[TOOL_CALLS][{...}]`) or a name (`[TOOL_CALLS]f[ARGS]{...}`); Llama's `<|python_tag|>` is
 * followed by JSON or by Python. Leading whitespace is held until the choice is made.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";

class DispatchDecoder implements PayloadDecoder {
  private lead = "";
  private inner: PayloadDecoder | undefined;

  constructor(
    private readonly choose: (first: string) => DecoderFactory,
    private readonly ctx: DecoderContext,
  ) {}

  push(text: string): DecoderEvent[] {
    if (this.inner) return this.inner.push(text);
    const all = this.lead + text;
    const at = all.search(/\S/);
    if (at < 0) {
      this.lead = all;
      return [];
    }
    this.lead = "";
    this.inner = this.choose(all[at]!)(this.ctx);
    return this.inner.push(all);
  }

  pushPlain(text: string): string | undefined {
    return this.inner?.pushPlain?.(text);
  }

  opaque(): boolean {
    return this.inner?.opaque?.() ?? false;
  }

  forwardsTo(): PayloadDecoder | undefined {
    return this.inner;
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.inner) return this.inner.end(closed);
    const out: DecoderEvent[] = [{ kind: "fail", type: closed ? "malformed" : "truncated", message: "empty call region", raw: this.lead }];
    if (this.ctx.selfClosing) out.push({ kind: "close", rest: this.lead });
    return out;
  }
}

export function dispatchByFirstChar(choose: (first: string) => DecoderFactory): DecoderFactory {
  return (ctx: DecoderContext) => new DispatchDecoder(choose, ctx);
}
