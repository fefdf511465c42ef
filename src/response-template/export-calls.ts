/**
 * One call region of a family (src/parse/language.ts) as the `tool_calls` field of a transformers
 * response template (export.ts), or why it cannot be one. A field has one content parser, so:
 * - `json-calls`: `json`, the call object's keys named by the transform; one object per region
 *   (`repeats`), or one array per region (`transform_each`) where the family writes arrays (`array`);
 * - `header-args`: the header in the open pattern (the name a capture), `json` arguments;
 * - `tagged`: the call tag is the region (`<invoke name="(?P<name>...)">` ... `</invoke>`), its wrapper
 *   markers are dropped like end-of-turn tokens, parameters are `xml-inline` tags; without a call tag
 *   the name is the text after the region's start;
 * - `literal-calls` in Gemma's dialects: `json` with `unquoted_keys` and the quote token as string
 *   delimiters.
 * Python literals, raw code, nested XML elements and channel bodies have no content parser.
 */
import type { FormatDescription, Payload, RegionSpec } from "../parse/language.js";
import { literalDialect } from "../parse/literal/dialects.js";
import { compilePattern, HOLE_CLASS } from "../parse/patterns.js";
import { pyAnyOf, pyEither, pyLiteral, pyPattern, pyUnnamed } from "./python-pattern.js";
import type { JsonValue } from "./types.js";

/** Something of the family that the exported template does not say, and why. */
export interface ExportNote {
  part: string;
  reason: string;
}

/** A delimiter: literal strings (transformers' fast, zero-latency form) or a Python pattern. */
export type Anchor = { literals: readonly string[] } | { pattern: string };

export const anchorPattern = (a: Anchor): string => ("literals" in a ? pyAnyOf(a.literals) : a.pattern);

/** A tool_calls field before its anchors are merged with the other regions' (export.ts). */
export interface CallField {
  open: Anchor;
  close?: Anchor;
  /** content, content_args, repeats, transform, transform_each: what regions must share to merge. */
  body: { readonly [key: string]: JsonValue };
  /** Markers of the region around the call tags, dropped as text (a tagged family's wrapper). */
  wrappers: { starts: readonly string[]; ends: readonly string[] };
  /**
   * How a call of the region shows inside reasoning, where chatwire reads it as a call (docs/parsing.md,
   * "Calls written inside reasoning"): the pattern that starts it (no captures) and the markers that end
   * it, after which the reasoning goes on. Absent when chatwire does not read the region there (it is
   * allowed only at the answer's start) or the region has no end marker to resume after.
   */
  inReasoning?: { start: string; ends: readonly string[] };
  notes: readonly ExportNote[];
}

export type CallFieldOrReason = CallField | { reason: string };

const NAME = HOLE_CLASS.name!;
const NO_WRAPPERS = { starts: [], ends: [] };
const FUNCTION = (name: string, args: string) => ({ type: "function", function: { name, arguments: args } });

/** Where the region opens: its start markers, or a lookahead when they are part of the payload. */
function regionOpen(region: RegionSpec, format: FormatDescription): Anchor {
  const inPayload = region.startInPayload;
  let open: Anchor;
  if (inPayload === true) open = { pattern: `(?=${pyAnyOf(region.start)})` };
  else if (typeof inPayload === "number") open = { pattern: pyEither(region.start.map((s) => `${pyLiteral(s.slice(0, -inPayload))}(?=${pyLiteral(s.slice(-inPayload))})`)) };
  else open = { literals: region.start };
  if (region.atStartOnly !== true) return open;
  // At the output's start (the prompt's end is all the parser sees before it) or right after reasoning.
  const ends = (format.reasoning ?? []).flatMap((r) => r.end);
  const at = ends.length > 0 ? `(?:\\A|(?<=${pyAnyOf(ends)}))` : "\\A";
  return { pattern: `${at}\\s*${anchorPattern(open)}` };
}

/**
 * Where the region closes: its end markers; without them, before the next call's start or at an
 * end-of-turn marker (the family's `ignore` list), else at the end of the output.
 */
function regionClose(region: RegionSpec, format: FormatDescription): Anchor | undefined {
  if (region.end !== undefined && region.end.length > 0) return { literals: region.end };
  const parts: string[] = [];
  // A start that is part of the payload (`[`) may occur inside it: it cannot end the region.
  if (region.startInPayload === undefined || region.startInPayload === false) parts.push(`(?=${pyAnyOf(region.start)})`);
  if ((format.ignore ?? []).length > 0) parts.push(pyAnyOf(format.ignore!));
  return parts.length === 0 ? undefined : { pattern: parts.join("|") };
}

/**
 * A region read inside reasoning: it starts at `start` (a pattern: the field's open, or a wrapper's start)
 * and ends at `ends`. None for a region allowed only at the answer's start (chatwire does not read it
 * there), one whose start is part of its payload (a `{` in reasoning is reasoning's own text), or one
 * without end markers (its call would run on into the reasoning's end).
 */
function inReasoning(region: RegionSpec, start: string, ends: readonly string[] | undefined, inPayloadToo = false): Pick<CallField, "inReasoning"> {
  if (region.atStartOnly === true || ends === undefined || ends.length === 0) return {};
  if (!inPayloadToo && region.startInPayload !== undefined && region.startInPayload !== false) return {};
  return { inReasoning: { start: pyUnnamed(start), ends } };
}

function placeholderKey(key: string): boolean {
  return /^\w+$/.test(key);
}

function jsonCalls(payload: Extract<Payload, { kind: "json-calls" }>, region: RegionSpec, format: FormatDescription): CallFieldOrReason {
  if (payload.nameIsKey === true) return { reason: "the tool's name is the call object's key (`{\"f\": {...}}`); a transform names values, not keys" };
  const nameKey = payload.nameKeys?.[0] ?? "name";
  const argsKey = payload.argsKeys?.[0] ?? "arguments";
  if (!placeholderKey(nameKey) || !placeholderKey(argsKey)) return { reason: `the keys ${nameKey}, ${argsKey} are not words, which a {placeholder} needs` };
  const notes: ExportNote[] = [];
  if ((payload.nameKeys ?? []).length > 1 || (payload.argsKeys ?? []).length > 1) {
    notes.push({ part: "json-calls keys", reason: `only "${nameKey}" and "${argsKey}" are read (a transform names one key; a call with another raises)` });
  }
  if (payload.sequence === true) notes.push({ part: "json-calls sequence", reason: "several call objects in one region are not read: the json parser reads one value" });
  const inPayload = region.startInPayload !== undefined && region.startInPayload !== false;
  const array = payload.array === true || (inPayload && region.start.every((s) => s.endsWith("[")));
  const body: CallField["body"] = array
    ? { content: "json", transform_each: true, transform: FUNCTION(`{${nameKey}}`, `{${argsKey}}`) }
    : { content: "json", repeats: true, transform: FUNCTION(`{content.${nameKey}}`, `{content.${argsKey}}`) };
  if (array) notes.push({ part: "json-calls array", reason: "a lone call object is not read, and of several regions only the last one's calls are kept (an array field does not repeat)" });
  const close = regionClose(region, format);
  const open = regionOpen(region, format);
  return { open, ...(close ? { close } : {}), body, wrappers: NO_WRAPPERS, ...inReasoning(region, anchorPattern(open), region.end), notes };
}

function headerArgs(payload: Extract<Payload, { kind: "header-args" }>, region: RegionSpec, format: FormatDescription): CallFieldOrReason {
  const headers = payload.header.filter((h) => h.includes("{name}"));
  if (headers.length === 0) return { reason: "no call header names the tool" };
  const notes: ExportNote[] = [];
  if (payload.headerIsId === true || headers.some((h) => h.includes("{id}"))) notes.push({ part: "call ids", reason: "the model's call ids are not kept (a transform cannot make an optional key)" });
  const ends = payload.headerEnd.length > 0 ? `\\s*${pyAnyOf(payload.headerEnd)}` : undefined;
  const brace = payload.braceEndsHeader === true ? "\\s*(?=\\{)" : undefined;
  const headerEnd = ends !== undefined && brace !== undefined ? `(?:${ends}|${brace})` : (ends ?? brace ?? "");
  const fence = payload.fence === true ? "\\s*(?:```(?:json)?\\s*)?" : "";
  const open = `${anchorPattern(regionOpen(region, format))}\\s*${pyEither(headers.map((h) => pyPattern(h, new Set(["name"]))))}${headerEnd}${fence}`;
  const regionEnd = regionClose(region, format);
  const close: Anchor | undefined = regionEnd === undefined ? undefined : payload.fence === true ? { pattern: `\\s*(?:\`\`\`\\s*)?(?:${anchorPattern(regionEnd)})` } : regionEnd;
  return { open: { pattern: open }, ...(close ? { close } : {}), body: { content: "json", repeats: true, transform: FUNCTION("{name}", "{content}") }, wrappers: NO_WRAPPERS, ...inReasoning(region, open, region.end), notes };
}

/**
 * What must follow a value's close tag for it to end the value, as chatwire's tagged decoder reads it
 * (tagged-value-end.ts): after whitespace, a tag that may come next (`afterParam`: the next parameter's
 * open, the call's close), or the end of the call's body (the field's close took the call close). With
 * `afterParamNewline` that whitespace is empty or holds a newline. A close tag written inside a value
 * (`return "</parameter>"`) is then part of the value, not its end.
 */
export function valueEnd(payload: Extract<Payload, { kind: "tagged" }>): string {
  const params = payload.params;
  const paramPrefix = "key" in params ? params.key.open : (params.open.map((o) => compilePattern(o).prefix)[0] ?? "");
  const after = payload.afterParam ?? [paramPrefix, ...(payload.call !== undefined ? [payload.call.close] : [])];
  const gap = payload.afterParamNewline === true ? "(?:[^\\S\\n]*\\n\\s*)?" : "\\s*";
  return `(?=\\s*\\Z|${gap}${pyAnyOf(after.filter((t) => t !== ""))})`;
}

function tagged(payload: Extract<Payload, { kind: "tagged" }>, region: RegionSpec, format: FormatDescription): CallFieldOrReason {
  const notes: ExportNote[] = [];
  const params = payload.params;
  // One newline after the open tag and one before the close are layout (the tagged decoder strips them).
  // A CDATA section is the value verbatim, without its wrapper: Python's regex lets both alternatives
  // capture `value`.
  const value = payload.cdata === true ? "\\n?(?:<!\\[CDATA\\[(?P<value>.*?)\\]\\]>|(?P<value>.*?))\\n?" : "\\n?(?P<value>.*?)\\n?";
  const end = valueEnd(payload);
  let tagPattern: string;
  if ("key" in params) {
    tagPattern = `${pyLiteral(params.key.open)}\\s*(?P<key>.*?)\\s*${pyLiteral(params.key.close)}\\s*${pyLiteral(params.value.open)}${value}${pyLiteral(params.value.close)}${end}`;
  } else {
    tagPattern = `${pyEither(params.open.map((o) => pyPattern(o, new Set(["key"]))))}${value}${pyLiteral(params.close)}${end}`;
    if (params.typedBy !== undefined) notes.push({ part: `the ${params.typedBy.hole}= attribute`, reason: "a value the tag marks as JSON is typed by the schema only (xml-inline has no per-tag value parser)" });
  }
  if (payload.untyped === "json") notes.push({ part: "untyped values", reason: "a value of a key the schema does not declare stays text (chatwire decodes it as JSON when it is JSON)" });
  if (payload.jsonBody === true) notes.push({ part: "JSON call bodies", reason: "a call whose arguments are one JSON object instead of parameter tags is not read" });
  const body = { content: "xml-inline", content_args: { tag_pattern: tagPattern }, repeats: true, transform: FUNCTION("{name}", "{content}") };
  if (payload.call !== undefined) {
    const wrappers = { starts: region.startInPayload === true ? [] : region.start, ends: region.end ?? [] };
    const open = pyEither(payload.call.open.map((o) => pyPattern(o, new Set(["name"]))));
    // Inside reasoning a wrapped call starts at its wrapper and ends at the wrapper's end (a bare call tag
    // is reasoning text there, as it is outside); an unwrapped one is its own tags.
    const start = wrappers.starts.length > 0 ? pyAnyOf(wrappers.starts) : open;
    const ends = wrappers.ends.length > 0 ? wrappers.ends : [payload.call.close];
    return { open: { pattern: open }, close: { literals: [payload.call.close] }, body, wrappers, ...inReasoning(region, start, ends, true), notes };
  }
  const sep = payload.nameSep !== undefined ? `\\s*${pyLiteral(payload.nameSep)}` : "";
  const close = regionClose(region, format);
  const open = `${anchorPattern(regionOpen(region, format))}\\s*(?P<name>${NAME})${sep}`;
  return { open: { pattern: open }, ...(close ? { close } : {}), body, wrappers: NO_WRAPPERS, ...inReasoning(region, open, region.end), notes };
}

function literalCalls(payload: Extract<Payload, { kind: "literal-calls" }>, region: RegionSpec, format: FormatDescription): CallFieldOrReason {
  const dialect = literalDialect(payload.dialect);
  if (dialect.dictKeys !== "bare") return { reason: "Python call literals (`f(a=1)`) have no content parser in transformers" };
  const quote = dialect.strings[0]!.quote;
  const notes: ExportNote[] = [{ part: "argument literals", reason: `strings in double quotes, and keys after a space, are not read (transformers' json dialect quotes a bare key only right after { or ,)` }];
  const open = `${anchorPattern(regionOpen(region, format))}\\s*${pyLiteral(payload.namePrefix ?? "")}(?P<name>${NAME})`;
  const close = regionClose(region, format);
  const body = { content: "json", content_args: { unquoted_keys: true, string_delims: [[quote, quote]] }, repeats: true, transform: FUNCTION("{name}", "{content}") };
  return { open: { pattern: open }, ...(close ? { close } : {}), body, wrappers: NO_WRAPPERS, ...inReasoning(region, open, region.end), notes };
}

/** Literal tags a spelling writes (its call, parameter and header markers); none for bare JSON. */
function spellingMarkers(payload: Payload): string[] {
  switch (payload.kind) {
    case "tagged": {
      const params = "key" in payload.params ? [payload.params.key.open, payload.params.value.open] : payload.params.open.map((o) => compilePattern(o).prefix);
      return [...(payload.call?.open ?? []).map((o) => compilePattern(o).prefix), ...params, ...(payload.nameSep !== undefined ? [payload.nameSep] : [])].filter((m) => m !== "");
    }
    case "header-args":
      return [...payload.headerEnd];
    case "literal-calls":
      return payload.namePrefix !== undefined ? [payload.namePrefix] : [];
    default:
      return [];
  }
}

/**
 * A by-first-char region's spellings in the order they are tried: with the chat template's source, the
 * ones whose tags it writes first (or, when it writes none of them, the bare ones), as the grammar
 * chooses (grammars.md); else `otherwise` (the one the grammar writes), then the cases.
 */
function spellingsOf(payload: Extract<Payload, { kind: "by-first-char" }>, source: string | undefined): [string, Payload][] {
  const all: [string, Payload][] = [["otherwise", payload.otherwise], ...Object.entries(payload.cases).map(([first, p]): [string, Payload] => [`after ${JSON.stringify(first)}`, p])];
  if (source === undefined) return all;
  const written = all.filter(([, p]) => spellingMarkers(p).some((m) => source.includes(m)));
  const preferred = written.length > 0 ? written : all.filter(([, p]) => spellingMarkers(p).length === 0);
  return [...preferred, ...all.filter((s) => !preferred.includes(s))];
}

/** The region as a tool_calls field, or why it cannot be one; `source`: the chat template's, when known. */
export function callField(region: RegionSpec, format: FormatDescription, source?: string): CallFieldOrReason {
  const payload = region.payload;
  if (payload.kind !== "by-first-char") return fieldOf(payload, region, format);
  // One field has one content parser: the first spelling that can be a field is written, the others are not read.
  const spellings = spellingsOf(payload, source);
  let first: { reason: string } | undefined;
  for (const [which, spelling] of spellings) {
    const field = fieldOf(spelling, region, format);
    if ("reason" in field) {
      first ??= field;
      continue;
    }
    const others = spellings.filter(([w]) => w !== which).map(([w, p]) => `${p.kind} ${w}`);
    const note = { part: `the other spellings of ${JSON.stringify(region.start[0])}`, reason: `${others.join(", ")} not read: one field has one content parser` };
    return { ...field, notes: [note, ...field.notes] };
  }
  return first!;
}

function fieldOf(payload: Payload, region: RegionSpec, format: FormatDescription): CallFieldOrReason {
  switch (payload.kind) {
    case "json-calls":
      return jsonCalls(payload, region, format);
    case "header-args":
      return headerArgs(payload, region, format);
    case "tagged":
      return tagged(payload, region, format);
    case "literal-calls":
      return literalCalls(payload, region, format);
    case "python-or-json":
      return { reason: "Python call literals (with JSON as a second spelling) have no content parser in transformers" };
    case "python-tag":
      return { reason: "<|python_tag|> holds raw code for a built-in tool, which no content parser makes a call of" };
    case "xml-calls":
      return { reason: "arguments are nested XML elements (objects, list items), which xml-inline's flat key/value tags cannot say" };
    case "json-args":
      return { reason: "a bare arguments body belongs to a channel message, whose header names the call" };
    case "by-first-char":
      return fieldOf(payload.otherwise, region, format);
  }
}
