/**
 * The regions some tolerances add beside a family's own: a region wrapped in a fence, opened by its
 * start marker written twice, or opened by its end marker.
 */
import type { CompiledRegion } from "../compile-format.js";
import { repairing } from "../decoders/repairing.js";

/**
 * `region` opened by `around` with the fence line `open` before it: the fence line is part of its start
 * marker (so it is held only as a marker prefix is), and reported once the call validates.
 */
export function fencedRegion(region: CompiledRegion, open: string, around: string): CompiledRegion {
  const inPayload = region.startInPayload;
  const out: CompiledRegion = {
    ...region,
    start: [`${open}\n${around}`],
    decoder: repairing(region.decoder, { repair: "fence", message: `the ${open} fence around the call read as part of it`, text: open }),
  };
  // The payload part of the start marker is still the original marker's (or its last N characters).
  if (inPayload === true) out.startInPayload = around.length;
  return out;
}

/** `region` opened by its start marker `m` written twice: both are its start marker, the first reported. */
export function repeatedOpenerRegion(region: CompiledRegion, m: string): CompiledRegion {
  return {
    ...region,
    start: [`${m}\n${m}`],
    decoder: repairing(region.decoder, { repair: "repeated-opener", message: `${JSON.stringify(m)} written twice read as one`, text: m }),
  };
}

/**
 * `region` opened by its end marker, a newline and the payload's first character `first` (that
 * character is payload): a call or text, never an error of its own (quiet), as the closer was text.
 */
export function closerOpenerRegion(region: CompiledRegion, first: string): CompiledRegion {
  const closer = region.end![0]!;
  return {
    ...region,
    start: [`${closer}\n${first}`],
    startInPayload: first.length,
    quietIfNotCall: true,
    decoder: repairing(region.decoder, { repair: "closer-as-opener", message: `${JSON.stringify(closer)} before the call read as its start marker ${JSON.stringify(region.start[0])}`, text: closer }),
  };
}
