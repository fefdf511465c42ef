/**
 * What the fuzzer knows about a format, read from its description (listFormats()), so that a family
 * added to the registry is fuzzed without touching this suite: the markers it reacts to (they make
 * the marker soup, and they are the characters that may vanish from the output).
 */
import type { FormatDescription } from "../../src/formats/index.js";
import { syntaxTexts } from "../../src/parse/syntax-texts.js";

const WORDS = /[\p{L}\p{N}_]+/gu;

/** The words of the format's call syntax (tag and attribute names, token prefixes), read from its data. */
export function formatSyntaxWords(f: FormatDescription): Set<string> {
  return new Set(syntaxTexts(f).flatMap((t) => t.match(WORDS) ?? []));
}

/** Every marker string the description names: regions, sections, reasoning, channels, ignored tokens. */
export function formatMarkers(f: FormatDescription): string[] {
  const out = new Set<string>();
  const add = (xs: readonly string[] | undefined): void => {
    for (const x of xs ?? []) if (x !== "") out.add(x);
  };
  for (const r of f.regions) {
    add(r.start);
    add(r.end);
  }
  for (const s of f.sections ?? []) {
    add(s.start);
    add(s.end);
  }
  for (const r of f.reasoning ?? []) {
    add(r.start);
    add(r.end);
  }
  if (f.channels) {
    add(f.channels.headerStart);
    add(f.channels.headerEnd);
    add(f.channels.bodyEnd);
  }
  add(f.ignore);
  return [...out];
}
