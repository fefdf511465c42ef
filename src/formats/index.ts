/**
 * The format registry: every family's description, looked up by id, and template detection.
 * Registration is by construction: families.generated.ts (written by scripts/gen-families.mjs from
 * every `export const x = defineFormat(` in src/formats/*.ts, git-ignored) re-exports each family,
 * and `FormatId` is the union of the exported ids.
 *
 * Detection tries the families in an order derived from the data: by id, except that a family whose
 * `detect.before` names others is tried before them (many templates share markers: `<tool_call>` is
 * in hermes, qwen3-coder and apriel templates). test/formats/detect.test.ts checks every corpus
 * template detects as expected under this order.
 */
import { ChatwireError } from "../errors.js";
import type { ReasoningMarkers } from "../parse/language.js";
import * as families from "./families.generated.js";
import type { RegisteredFormat } from "./types.js";

type Registered = (typeof families)[keyof typeof families];

/** Every registered format id (formats.md lists what each family writes). */
export type FormatId = Registered["id"];

export type { FormatDescription, RegisteredFormat } from "./types.js";
export type * from "./types.js";

const FORMATS: readonly RegisteredFormat[] = Object.values(families) as readonly RegisteredFormat[];

const byId = new Map<string, RegisteredFormat>(FORMATS.map((f) => [f.id, f]));

/**
 * Sorted by id, then every family moved before the ones its `detect.before` names (a stable
 * topological order). Throws at load for an unknown id or a cycle, so a bad declaration cannot ship.
 */
function detectionOrder(): RegisteredFormat[] {
  const sorted = [...FORMATS].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const mustPrecede = new Map<string, Set<string>>(sorted.map((f) => [f.id, new Set()]));
  for (const f of sorted) {
    for (const later of f.detect?.before ?? []) {
      const set = mustPrecede.get(later);
      if (set === undefined) throw new ChatwireError("invalid_format", `${f.id}: detect.before names unknown format ${JSON.stringify(later)}`);
      set.add(f.id);
    }
  }
  const out: RegisteredFormat[] = [];
  const placed = new Set<string>();
  while (out.length < sorted.length) {
    const next = sorted.find((f) => !placed.has(f.id) && [...mustPrecede.get(f.id)!].every((id) => placed.has(id)));
    if (next === undefined) throw new ChatwireError("invalid_format", "detect.before constraints form a cycle");
    out.push(next);
    placed.add(next.id);
  }
  return out;
}

const ORDERED = detectionOrder();

/** The description of a format id; throws ChatwireError `unknown_format` for an unregistered id. */
export function getFormat(id: string): RegisteredFormat {
  const format = byId.get(id);
  if (format === undefined) {
    const known = listFormats().map((f) => f.id).join(", ");
    throw new ChatwireError("unknown_format", `unknown format ${JSON.stringify(id)} (known: ${known})`);
  }
  return format;
}

/** Every registered format, in detection order. */
export function listFormats(): RegisteredFormat[] {
  return [...ORDERED];
}

function matches(format: RegisteredFormat, source: string): boolean {
  const rule = format.detect;
  if (rule === undefined) return false;
  if (rule.noneOf?.some((s) => source.includes(s))) return false;
  return rule.anyOf.some((group) => group.every((s) => source.includes(s)));
}

/** The tool-call format a chat template writes, or undefined when it has no recognised tool syntax. */
export function detectFormat(templateSource: string): FormatId | undefined {
  return ORDERED.find((f) => matches(f, templateSource))?.id;
}

/**
 * The reasoning markers a template uses: those of its detected format when they occur in the source,
 * else the first generic `<think>`-style pair found in it (templates without tool syntax still think).
 */
export function detectReasoning(templateSource: string): ReasoningMarkers | undefined {
  const id = detectFormat(templateSource);
  const candidates = [...(id ? (getFormat(id).reasoning ?? []) : []), ...GENERIC_REASONING];
  return candidates.find((r) => r.start.some((s) => templateSource.includes(s)) || r.end.some((e) => templateSource.includes(e)));
}

/** Reasoning pairs seen in templates whose tool format is unknown or absent. */
const GENERIC_REASONING: readonly ReasoningMarkers[] = [
  { start: ["<think>"], end: ["</think>"] },
  { start: ["<seed:think>"], end: ["</seed:think>"] },
  { start: ["[THINK]"], end: ["[/THINK]"] },
  { start: ["<|START_THINKING|>"], end: ["<|END_THINKING|>"] },
];
