/**
 * Anchors as markers: a literal anchor is its strings; a pattern anchor is read (python-regex.ts) and
 * becomes the literal strings it can match when it is a run of literals and literal alternations.
 * Leading and trailing `\s*` / `\s+` are dropped: they only keep whitespace out of transformers'
 * regions, and chatwire trims the whitespace around markers itself (docs/response-templates.md lists
 * where that differs).
 */
import { readPattern, topLevelAlternatives, type Piece, type ReadOptions } from "./python-regex.js";
import type { LiteralAnchor } from "./types.js";

export interface Refusal {
  /** The path of the field or key (`response_template.fields.tool_calls.open_pattern`). */
  field: string;
  /** The construct that has no equivalent (`a lookaround`, `content kv-lines`). */
  construct: string;
  reason: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

export const refused = (field: string, construct: string, reason: string): { ok: false; refusal: Refusal } => ({ ok: false, refusal: { field, construct, reason } });

export function literals(anchor: LiteralAnchor): string[] {
  return typeof anchor === "string" ? [anchor] : [...anchor];
}

/** Pieces without leading and trailing whitespace runs. */
export function trimSpaces(pieces: readonly Piece[]): Piece[] {
  let start = 0;
  let end = pieces.length;
  while (start < end && pieces[start]!.kind === "space") start++;
  while (end > start && pieces[end - 1]!.kind === "space") end--;
  return pieces.slice(start, end);
}

/** The strings a run of literal and alternation pieces matches (their cross product), or undefined. */
export function expand(pieces: readonly Piece[]): string[] | undefined {
  let out = [""];
  for (const piece of pieces) {
    if (piece.kind === "literal") out = out.map((s) => s + piece.text);
    else if (piece.kind === "alternatives") out = out.flatMap((s) => piece.options.map((o) => s + o));
    else return undefined;
  }
  return out.length <= 16 ? out : undefined;
}

/** Reads a pattern, as a refusal of `field` when it holds a construct the language cannot say. */
export function readAnchorPattern(field: string, pattern: string, options: ReadOptions = {}): Read<Piece[]> {
  const reading = readPattern(pattern, options);
  if (!reading.ok) return refused(field, reading.construct, `no equivalent in the format language (at offset ${reading.at} of ${JSON.stringify(pattern)})`);
  return { ok: true, value: reading.pieces };
}

/**
 * A field's open or close anchor as plain markers (no holes): literal strings or a literal pattern; a
 * pattern's top-level alternatives (`<|im_end|>|<tool_call>\s*|\s*</tool_call>`) are each read so.
 */
export function plainMarkers(field: string, literal: LiteralAnchor | undefined, pattern: string | undefined): Read<string[]> | undefined {
  if (literal !== undefined) return { ok: true, value: literals(literal) };
  if (pattern === undefined) return undefined;
  const markers: string[] = [];
  for (const alternative of topLevelAlternatives(pattern)) {
    const read = alternativeMarkers(field, alternative);
    if (!read.ok) return read;
    markers.push(...read.value.filter((m) => !markers.includes(m)));
  }
  return { ok: true, value: markers };
}

function alternativeMarkers(field: string, pattern: string): Read<string[]> {
  const read = readAnchorPattern(field, pattern);
  if (!read.ok) return read;
  const inner = trimSpaces(read.value);
  const markers = expand(inner);
  if (markers === undefined || markers.length === 0 || markers.some((m) => m === "")) {
    const what = inner.find((p) => p.kind !== "literal" && p.kind !== "alternatives");
    return refused(field, what?.kind === "group" ? `the named group ${what.name}` : what?.kind === "space" ? "whitespace inside a marker" : "an empty marker", "a plain marker (reasoning, content end) is literal text");
  }
  return { ok: true, value: markers };
}
