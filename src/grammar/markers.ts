/**
 * Every marker of a format description: what free text, raw values and (while the parser ends regions
 * there) quoted strings must not contain.
 */
import type { FormatDescription } from "../formats/types.js";

export function formatMarkers(format: FormatDescription): string[] {
  const out: string[] = [];
  for (const r of format.reasoning ?? []) out.push(...r.start, ...r.end);
  for (const r of format.regions) out.push(...r.start, ...(r.end ?? []));
  for (const s of format.sections ?? []) out.push(...s.start, ...s.end);
  if (format.channels !== undefined) out.push(...format.channels.headerStart, ...format.channels.headerEnd, ...format.channels.bodyEnd);
  out.push(...(format.ignore ?? []));
  return [...new Set(out.filter((m) => m !== ""))];
}

/**
 * What a quoted string may not hold: the end markers of call regions (it would end the call early)
 * the tag prefixes of xml-calls payloads (their decoder reads a tag wherever one starts, also inside
 * JSON text in a leaf), and a channel format's header starts and body ends.
 */
export function regionEndMarkers(format: FormatDescription): string[] {
  const tags = format.regions.flatMap((r) => (r.payload.kind === "xml-calls" ? [r.payload.open[0], r.payload.close[0]] : []));
  // A channel message's call body ends at the next header or body end.
  const messageEnds = format.channels === undefined ? [] : [...format.channels.headerStart, ...format.channels.bodyEnd];
  return [...new Set([...format.regions.flatMap((r) => r.end ?? []), ...tags, ...messageEnds])];
}
