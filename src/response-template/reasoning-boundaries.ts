/**
 * The call boundaries of an exported thinking field (export.ts `thinkingAnchors`), read back: a close
 * alternative `(?=CALL-START)` (the reasoning stops where a call starts) and an open alternative
 * `(?<=CALL-END)(?<=START(?:(?!END).)*)` (it goes on after the call's end while a block is open). They say
 * that a call written inside reasoning is a call and the reasoning continues around it, which is how
 * chatwire reads reasoning (docs/parsing.md). They are accepted when they are about the compiled
 * template's own markers: each call start begins with a region's start or a dropped (`ignore`) marker,
 * each call end is a region's end, a call's close tag or a dropped marker, and the open-block test names
 * the thinking field's own markers. Any other lookaround is refused.
 */
import type { FormatDescription } from "../parse/language.js";
import { pyAnyOf } from "./python-pattern.js";
import { groupEnd, literalAt, onlyLookarounds, readPattern, topLevelAlternatives } from "./python-regex.js";
import type { ResponseTemplateField } from "./types.js";

export interface Boundaries {
  /** The field with the boundary alternatives taken out. */
  field: ResponseTemplateField;
  /** The lookahead bodies of the close, and the lookbehind runs of the open, that were taken out. */
  starts: string[];
  resumes: string[];
}

/** The field without its lookaround-only alternatives (lookaheads in the close, lookbehinds in the open). */
export function withoutBoundaries(f: ResponseTemplateField): Boundaries {
  const out: Boundaries = { field: f, starts: [], resumes: [] };
  const strip = (pattern: string | undefined, kind: "(?=" | "(?<=", into: string[]): string | undefined => {
    if (pattern === undefined) return undefined;
    const all = topLevelAlternatives(pattern);
    const kept = all.filter((a) => !onlyLookarounds(a, kind));
    if (kept.length === all.length || kept.length === 0) return pattern;
    into.push(...all.filter((a) => onlyLookarounds(a, kind)));
    return kept.join("|");
  };
  const open = strip(f.open_pattern, "(?<=", out.resumes);
  const close = strip(f.close_pattern, "(?=", out.starts);
  out.field = { ...f, ...(open !== undefined ? { open_pattern: open } : {}), ...(close !== undefined ? { close_pattern: close } : {}) };
  return out;
}

/** The leaves of nested alternations: `(?:a|(?:b|c)d)` -> `a`, `(?:b|c)d`. */
function leaves(src: string): string[] {
  const alts = topLevelAlternatives(src);
  if (alts.length > 1) return alts.flatMap(leaves);
  if (src.startsWith("(?:") && groupEnd(src, 0) === src.length - 1) return leaves(src.slice(3, -1));
  return [src];
}

/** The literal text a pattern starts with. */
function literalPrefix(src: string): string {
  let out = "";
  for (let i = 0; i < src.length; ) {
    const lit = literalAt(src, i);
    if (lit === undefined || /^[*+?{]/.test(src.slice(i + lit.length))) break;
    out += lit.text;
    i += lit.length;
  }
  return out;
}

/** The literal strings of a pattern that is a literal or a literal alternation, or undefined. */
function literalsOf(src: string): string[] | undefined {
  const read = readPattern(src);
  if (!read.ok || read.pieces.length !== 1) return undefined;
  const p = read.pieces[0]!;
  return p.kind === "literal" ? [p.text] : p.kind === "alternatives" ? [...p.options] : undefined;
}

/** Whether the boundaries taken out are about the compiled format's own calls and reasoning markers. */
export function boundariesFit(b: Boundaries, format: FormatDescription): boolean {
  const reasoning = format.reasoning ?? [];
  if (reasoning.length === 0) return false;
  const regionStarts = format.regions.flatMap((r) => r.start);
  const dropped = format.ignore ?? [];
  const callEnds = new Set([...format.regions.flatMap((r) => r.end ?? []), ...format.regions.flatMap((r) => (r.payload.kind === "tagged" && r.payload.call ? [r.payload.call.close] : [])), ...dropped]);
  const startOk = (leaf: string) => {
    const prefix = literalPrefix(leaf);
    return prefix !== "" && [...regionStarts, ...dropped].some((m) => prefix.startsWith(m));
  };
  if (!b.starts.every((s) => leaves(s.slice(3, -1)).every(startOk))) return false;
  const open = `${pyAnyOf(reasoning.flatMap((r) => r.start))}(?:(?!${pyAnyOf(reasoning.flatMap((r) => r.end))}).)*`;
  return b.resumes.every((r) => {
    const end = groupEnd(r, 0);
    const ends = literalsOf(r.slice(4, end));
    return ends !== undefined && ends.every((e) => callEnds.has(e)) && r.slice(end + 1) === `(?<=${open})`;
  });
}
