/**
 * A decoder that reports one repair (a `repaired` event) before the events of the decoder it wraps,
 * then hands the region to it (`forwardsTo`): a region read through a tolerance (a fence in place of
 * the markers, the family's other syntax) says so once. The engine keeps the repair only if the call
 * it comes before validates.
 */
import type { DecoderContext, DecoderEvent, DecoderFactory, PayloadDecoder } from "../decoder.js";

type Repair = Omit<Extract<DecoderEvent, { kind: "repaired" }>, "kind">;

class RepairingDecoder implements PayloadDecoder {
  private reported = false;

  constructor(
    private readonly inner: PayloadDecoder,
    private readonly repair: Repair,
  ) {}

  push(text: string): DecoderEvent[] {
    return this.first(this.inner.push(text));
  }

  opaque(): boolean {
    return this.inner.opaque?.() ?? false;
  }

  forwardsTo(): PayloadDecoder | undefined {
    return this.reported ? this.inner : undefined;
  }

  end(closed: boolean): DecoderEvent[] {
    return this.first(this.inner.end(closed));
  }

  private first(events: DecoderEvent[]): DecoderEvent[] {
    if (this.reported) return events;
    this.reported = true;
    return [{ kind: "repaired", ...this.repair }, ...events];
  }
}

export function repairing(factory: DecoderFactory, repair: Repair): DecoderFactory {
  return (ctx: DecoderContext) => new RepairingDecoder(factory(ctx), repair);
}
