/**
 * How a model's declared response template and the family detected from its chat template combine
 * (docs/response-templates.md, "Parse"): when the family speaks the declared syntax (its markers and
 * payload kinds cover the compiled template's), the family parses, because it carries what a
 * declaration cannot say (calls inside reasoning, missing close tags, the model's other spellings);
 * the declaration's end-of-turn markers are added to its ignore list. Otherwise the declaration wins:
 * the model's author said what the model writes, and the compiled template parses.
 */
import type { FormatDescription, Payload, RegionSpec } from "../parse/language.js";

export interface ChosenFormat {
  format: FormatDescription;
  /** `family`: the detected family (plus the declared end markers); `declared`: the compiled template. */
  source: "family" | "declared";
  /** Why, in one line: what of the declaration the family does not cover. */
  reason: string;
}

function kinds(payload: Payload): string[] {
  if (payload.kind === "by-first-char") return [...Object.values(payload.cases).flatMap(kinds), ...kinds(payload.otherwise)];
  if (payload.kind === "python-or-json") return ["python-or-json", ...kinds(payload.json)];
  return [payload.kind];
}

function payloads(payload: Payload): Payload[] {
  return payload.kind === "by-first-char" ? [...Object.values(payload.cases).flatMap(payloads), ...payloads(payload.otherwise)] : [payload];
}

/**
 * A declared call tag read as its own region (`<function=(?P<name>...)>`, as chatwire's export writes a
 * wrapped tagged family) whose wrapper markers the declaration drops: the family's wrapped region, when
 * the family's call tags are the same and its wrapper markers are among the declared dropped markers.
 */
function wrappedBy(family: RegionSpec, declared: RegionSpec, dropped: readonly string[]): boolean {
  const call = declared.payload.kind === "tagged" ? declared.payload.call : undefined;
  if (declared.startInPayload !== true || call === undefined) return false;
  const wrappers = [...family.start, ...(family.end ?? [])].every((m) => dropped.includes(m));
  return wrappers && payloads(family.payload).some((p) => p.kind === "tagged" && JSON.stringify(p.call) === JSON.stringify(call));
}

function covers(family: RegionSpec, declared: RegionSpec, dropped: readonly string[]): boolean {
  if (wrappedBy(family, declared, dropped)) return true;
  const starts = declared.start.every((s) => family.start.some((f) => s.startsWith(f)));
  const ends = (declared.end ?? []).every((e) => (family.end ?? []).includes(e));
  return starts && ends && kinds(family.payload).includes(declared.payload.kind);
}

/** What of `declared` the family `family` does not say, or undefined when it says all of it. */
function uncovered(family: FormatDescription, declared: FormatDescription): string | undefined {
  const familyReasoning = (family.reasoning ?? []).flatMap((r) => [...r.start, ...r.end]);
  for (const block of declared.reasoning ?? []) {
    const missing = [...block.start, ...block.end].filter((m) => !familyReasoning.includes(m));
    if (missing.length > 0) return `reasoning markers ${JSON.stringify(missing)} are not the family's`;
  }
  for (const region of declared.regions) {
    if (!family.regions.some((f) => covers(f, region, declared.ignore ?? []))) return `the call region ${JSON.stringify(region.start)} (${region.payload.kind}) is not the family's`;
  }
  if ((declared.sections ?? []).length > 0 || declared.channels !== undefined) return "the declaration has sections or channels";
  return undefined;
}

export function chooseFormat(family: FormatDescription, declared: FormatDescription): ChosenFormat {
  const why = uncovered(family, declared);
  if (why !== undefined) return { format: declared, source: "declared", reason: `${family.id} does not speak it: ${why}` };
  const ignore = [...new Set([...(family.ignore ?? []), ...(declared.ignore ?? [])])];
  return { format: { ...family, ignore }, source: "family", reason: `${family.id} speaks the declared syntax` };
}
