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

function covers(family: RegionSpec, declared: RegionSpec): boolean {
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
    if (!family.regions.some((f) => covers(f, region))) return `the call region ${JSON.stringify(region.start)} (${region.payload.kind}) is not the family's`;
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
