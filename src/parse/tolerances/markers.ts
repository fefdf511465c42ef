/**
 * A region's markers missing, misspelled, repeated, swapped or foreign: the closer of an opener left
 * out, another spelling or another protocol's token for the end marker, a marker written twice, the end
 * marker written as the opener, a lone fence closer, a JSON call followed by the end marker alone.
 * Each entry checks its tolerance against the description and fills the accumulator (build.ts).
 */
import { closedBareCall } from "../decoders/bare-call.js";
import { endOf, invalid, jsonCallsIn, regionOf } from "./build.js";
import type { Build, KindCompilers, Of } from "./build.js";
import type { FormatDescription } from "../language.js";

type Kinds = "stray-closer" | "misspelled-closer" | "foreign-closer" | "repeated-closer" | "repeated-opener" | "closer-as-opener" | "fence-closer" | "missing-opener";

export const REGION_MARKERS: KindCompilers<Kinds> = {
  "stray-closer"(t, into, format) {
    regionOf(format, t, t.after, "after");
    if (t.closer.length === 0 || t.closer.some((c) => c === "")) throw invalid(format, t, '"closer" needs non-empty markers');
    for (const c of t.closer) {
      const message = `${JSON.stringify(c)} after a call written without ${JSON.stringify(t.missing)} read as the call's closer`;
      into.stray.push({ after: t.after, closer: { closer: c, repair: "stray-closer", message } });
    }
  },
  "misspelled-closer"(t, into, format) {
    endInstead(t, into, format, (c, end) => `${JSON.stringify(c)} read as the region's end marker ${JSON.stringify(end)}`);
  },
  "foreign-closer"(t, into, format) {
    endInstead(t, into, format, (c, end) => `${JSON.stringify(c)} (another protocol's token) read as the region's end marker ${JSON.stringify(end)}`);
  },
  "repeated-closer"(t, into, format) {
    for (const c of endOf(format, t, t.region)) {
      const message = `${JSON.stringify(c)} written again after the call's own read as part of it`;
      into.stray.push({ after: t.region, closer: { closer: c, repair: "repeated-closer", message } });
    }
  },
  "repeated-opener"(t, into, format) {
    const region = regionOf(format, t, t.region);
    if (region.startInPayload !== undefined && region.startInPayload !== false) throw invalid(format, t, "the region's start marker is part of its payload");
    into.repeatedOpeners.push(t.region);
  },
  "closer-as-opener"(t, into, format) {
    endOf(format, t, t.region);
    if (t.first.length !== 1 || /\s/.test(t.first)) throw invalid(format, t, '"first" must be one non-space character');
    into.closerOpeners.push({ region: t.region, first: t.first });
  },
  "fence-closer"(t, into, format) {
    regionOf(format, t, t.after, "after");
    into.stray.push({ after: t.after, closer: { closer: "```", repair: "fence-closer", message: "a lone ``` after the call (its opening fence never written) read as part of it", lineEnd: true } });
  },
  "missing-opener"(t, into, format, compile) {
    const region = format.regions.find((r) => r.start.includes(t.opener));
    if (region === undefined || region.end === undefined || region.end.length === 0) throw invalid(format, t, `"opener" ${JSON.stringify(t.opener)} is no start marker of a region with an end marker`);
    const payload = jsonCallsIn(region.payload)[0];
    if (payload === undefined) throw invalid(format, t, "the region holds no JSON call objects");
    const closer = region.end[0]!;
    const message = `${JSON.stringify(closer)} after a JSON call object written without ${JSON.stringify(t.opener)} read as the call's closer`;
    into.regions.push({
      start: ["\n{"],
      startInPayload: 1,
      end: region.end,
      quietIfNotCall: true,
      outsideReasoning: true,
      notAtStart: true,
      decoder: closedBareCall(compile(payload), { message, text: closer }),
    });
  },
};

/**
 * `misspelled-closer` and `foreign-closer`: each of `t.closer`, a marker other than the region's own,
 * ends the region as its end marker would (the same path; only the repair's name and message differ).
 */
function endInstead(t: Of<"misspelled-closer" | "foreign-closer">, into: Build, format: FormatDescription, message: (closer: string, end: string) => string): void {
  const end = endOf(format, t, t.region);
  if (t.closer.length === 0 || t.closer.some((c) => c === "" || end.includes(c))) throw invalid(format, t, '"closer" needs non-empty markers other than the region\'s own');
  for (const c of t.closer) into.misspelled.push({ region: t.region, closer: { closer: c, repair: t.kind, message: message(c, end[0]!) } });
}
