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

/** The end markers of call regions: a quoted string holding one would end the call early. */
export function regionEndMarkers(format: FormatDescription): string[] {
  return [...new Set(format.regions.flatMap((r) => r.end ?? []))];
}
