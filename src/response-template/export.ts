/**
 * A family (src/formats) written as a transformers 5.x `response_template`, for `chatwire
 * response-template --format ID` and `exportResponseTemplate` (docs/response-templates.md, "Export"):
 * - `thinking`: the reasoning markers (every spelling; several pairs merge into one field);
 * - `tool_calls`: the call regions that share one shape (export-calls.ts), their anchors joined;
 * - `content`: the implicit field, all text outside the other two, kept as written and joined
 *   (`repeats`, `join: ""`, `strip: false`, which is chatwire's content); its close markers are the
 *   family's dropped markers (end-of-turn tokens, answer wrappers, section and call-wrapper markers);
 * - `start_anchor_pattern`: the prompt's end, keeping a reasoning block the prompt opened (the
 *   family does not know its chat template's assistant header; `startAnchor` gives it).
 * What the form cannot say is listed in `omitted` with its reason; a family with no call syntax it can
 * say (or a channel format) is refused with its reasons.
 */
import type { FormatDescription } from "../parse/language.js";
import { anchorPattern, callField, type Anchor, type CallField, type ExportNote } from "./export-calls.js";
import { pyAnyOf, pyEither, pyUnnamed } from "./python-pattern.js";
import type { JsonValue, LiteralAnchor, ResponseTemplate } from "./types.js";

export type { ExportNote } from "./export-calls.js";

export type ExportedResponseTemplate =
  | { ok: true; template: ResponseTemplate; omitted: readonly ExportNote[] }
  | { ok: false; reasons: readonly ExportNote[] };

export interface ExportOptions {
  /** The chat template's assistant header (`<|im_start|>assistant\n`): where the parser starts reading the prompt. */
  startAnchor?: LiteralAnchor;
  /** The chat template's source: which spelling of a by-first-char region its model writes. */
  templateSource?: string;
}

type Field = { [key: string]: JsonValue };

const TEXT_AS_WRITTEN = { content: "text", content_args: { strip: false }, repeats: true, join: "" } as const;

function put(field: Field, key: "open" | "close", anchor: Anchor | undefined): void {
  if (anchor === undefined) return;
  if ("literals" in anchor) {
    const unique = [...new Set(anchor.literals)];
    field[key] = unique.length === 1 ? unique[0]! : unique;
  } else field[`${key}_pattern`] = anchor.pattern;
}

/** Anchors of merged regions: one literal list when all are literal, else one pattern. */
function joined(anchors: readonly (Anchor | undefined)[]): Anchor | undefined {
  const present = anchors.filter((a): a is Anchor => a !== undefined);
  if (present.length === 0) return undefined;
  if (present.every((a) => "literals" in a)) return { literals: present.flatMap((a) => ("literals" in a ? a.literals : [])) };
  return { pattern: pyEither(present.map(anchorPattern)) };
}

/** The prompt's end, where a reasoning block the prompt opened is kept for the parser to read. */
function promptEnd(format: FormatDescription): string {
  const starts = (format.reasoning ?? []).flatMap((r) => r.start.map((s) => s.trimEnd()));
  const opened = starts.length > 0 ? `(?:${pyAnyOf(starts)})?` : "";
  return `\\A.*?(?=${opened}\\s*\\Z)`;
}

/**
 * A call's close, and the whitespace after it when another call follows: chatwire reads whitespace
 * between two calls as layout, not content.
 */
function betweenCalls(close: Anchor | undefined, open: Anchor): Anchor | undefined {
  return close === undefined ? undefined : { pattern: `${anchorPattern(close)}(?:\\s*(?=${anchorPattern(open)}))?` };
}

/**
 * The markers the content field drops: end-of-turn tokens and answer wrappers as written, and the
 * markers around calls (sections, a tagged family's region) with the whitespace inside them, which
 * chatwire reads as layout.
 */
function dropped(format: FormatDescription, calls: readonly CallField[]): Anchor | undefined {
  const starts = [...calls.flatMap((c) => c.wrappers.starts), ...(format.sections ?? []).flatMap((s) => s.start)];
  const ends = [...calls.flatMap((c) => c.wrappers.ends), ...(format.sections ?? []).flatMap((s) => s.end)];
  const plain = format.ignore ?? [];
  if (starts.length === 0 && ends.length === 0) return plain.length > 0 ? { literals: plain } : undefined;
  const patterns = [...(plain.length > 0 ? [pyAnyOf(plain)] : []), ...(starts.length > 0 ? [`${pyAnyOf(starts)}\\s*`] : []), ...(ends.length > 0 ? [`\\s*${pyAnyOf(ends)}`] : [])];
  return { pattern: patterns.join("|") };
}

/**
 * The thinking field's anchors. chatwire reads a call written inside reasoning as a call, and the
 * reasoning goes on after it (docs/parsing.md): the field also closes where a call (or a call section)
 * starts, and opens again right after a call's (or section's) end while a reasoning block is still open,
 * that is after its last start marker with no end marker since. The cheap lookbehind (the call's end)
 * comes first, so the scan back for the open block runs only at a call's end.
 */
function thinkingAnchors(format: FormatDescription, calls: readonly CallField[]): { open: Anchor; close: Anchor } {
  const starts = (format.reasoning ?? []).flatMap((r) => r.start);
  const ends = (format.reasoning ?? []).flatMap((r) => r.end);
  const read = calls.flatMap((c) => (c.inReasoning !== undefined ? [c.inReasoning] : []));
  if (read.length === 0) return { open: { literals: starts }, close: { literals: ends } };
  const sections = format.sections ?? [];
  const callStarts = [...read.map((r) => r.start), ...(sections.length > 0 ? [pyAnyOf(sections.flatMap((s) => s.start))] : [])];
  const callEnds = [...read.flatMap((r) => r.ends), ...sections.flatMap((s) => s.end)];
  const stillOpen = `${pyAnyOf(starts)}(?:(?!${pyAnyOf(ends)}).)*`;
  return {
    open: { pattern: `${pyAnyOf(starts)}|(?<=${pyAnyOf(callEnds)})(?<=${stillOpen})` },
    close: { pattern: `${pyAnyOf(ends)}|(?=${pyUnnamed(pyEither(callStarts))})` },
  };
}

/**
 * The call regions as one tool_calls field's parts: those of the first region's shape (deduplicated),
 * the others and their notes as what is omitted; or, when no region can be a field, why.
 */
function callFields(format: FormatDescription, source: string | undefined): { calls: CallField[]; omitted: ExportNote[] } | { reasons: ExportNote[] } {
  const calls: CallField[] = [];
  const skipped: ExportNote[] = [];
  format.regions.forEach((region, i) => {
    const field = callField(region, format, source);
    const part = `region ${i + 1} (${JSON.stringify(region.start[0])})`;
    if ("reason" in field) skipped.push({ part, reason: field.reason });
    else if (calls.length === 0 || JSON.stringify(calls[0]!.body) === JSON.stringify(field.body)) {
      if (!calls.some((c) => JSON.stringify(c) === JSON.stringify(field))) calls.push(field);
    } else skipped.push({ part, reason: "a second call syntax: one tool_calls field has one content parser and transform" });
  });
  if (calls.length === 0) return { reasons: skipped.length > 0 ? skipped : [{ part: "regions", reason: "the family has no call region" }] };
  const omitted = [...skipped];
  for (const c of calls) for (const n of c.notes) if (!omitted.some((o) => o.part === n.part)) omitted.push(n);
  return { calls, omitted };
}

export function exportResponseTemplate(format: FormatDescription, options: ExportOptions = {}): ExportedResponseTemplate {
  if (format.channels !== undefined) {
    return { ok: false, reasons: [{ part: "channels", reason: "messages are routed by their headers (channel, recipient); a response template has fixed regions, no headers" }] };
  }
  const found = callFields(format, options.templateSource);
  if ("reasons" in found) return { ok: false, reasons: found.reasons };
  const { calls, omitted } = found;

  const fields: Record<string, Field> = {};
  const reasoning = format.reasoning ?? [];
  if (reasoning.length > 0) {
    const thinking: Field = {};
    const anchors = thinkingAnchors(format, calls);
    put(thinking, "open", anchors.open);
    put(thinking, "close", anchors.close);
    fields.thinking = Object.assign(thinking, TEXT_AS_WRITTEN);
    if (reasoning.length > 1) omitted.push({ part: "reasoning pairs", reason: "one thinking field: a block opened by one spelling also closes at another's end marker" });
  }
  const toolCalls: Field = {};
  const open = joined(calls.map((c) => c.open))!;
  put(toolCalls, "open", open);
  put(toolCalls, "close", betweenCalls(joined(calls.map((c) => c.close)), open));
  Object.assign(toolCalls, calls[0]!.body);
  fields.tool_calls = toolCalls;

  const content: Field = {};
  put(content, "close", dropped(format, calls));
  fields.content = Object.assign(content, TEXT_AS_WRITTEN);

  const anchor = options.startAnchor;
  const start = anchor === undefined ? { start_anchor_pattern: promptEnd(format) } : { start_anchor: typeof anchor === "string" ? anchor : [...anchor] };
  return { ok: true, template: { version: 1, defaults: { role: "assistant" }, ...start, fields }, omitted };
}
