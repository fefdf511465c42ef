/**
 * Marker patterns of the format language (src/parse/language.ts: `<function={name}>`,
 * `functions.{name}:{index}`, `<｜DSML｜parameter name="{key}"[ string="{s}"]>`) written out as GBNF, in
 * their canonical spelling: a space is one space, a `"` is a double quote, optional parts are left out,
 * `{name}` and `{key}` are the given literal, `{index}` digits, `{id}` the format's id characters.
 */
import { lit } from "./gbnf.js";

type Part = { text: string } | { hole: string } | { optional: Part[] };

function parse(source: string): Part[] {
  let i = 0;
  const seq = (close?: string): Part[] => {
    const out: Part[] = [];
    let text = "";
    const flush = () => {
      if (text !== "") out.push({ text });
      text = "";
    };
    while (i < source.length) {
      const c = source[i]!;
      if (close !== undefined && c === close) {
        i++;
        break;
      }
      if (c === "\\" && i + 1 < source.length) {
        text += source[i + 1];
        i += 2;
      } else if (c === "{") {
        const j = source.indexOf("}", i);
        flush();
        out.push({ hole: source.slice(i + 1, j) });
        i = j + 1;
      } else if (c === "[") {
        flush();
        i++;
        out.push({ optional: seq("]") });
      } else {
        text += c;
        i++;
      }
    }
    flush();
    return out;
  };
  return seq();
}

/** The holes a pattern needs (outside optional parts). */
export function requiredHoles(source: string): string[] {
  return parse(source).flatMap((p) => ("hole" in p ? [p.hole] : []));
}

/** The literal text a pattern starts with, up to its first hole, space, quote or optional part. */
export function patternPrefix(source: string): string {
  const first = parse(source)[0];
  if (first === undefined || !("text" in first)) return "";
  const cut = first.text.search(/[ "]/);
  return cut < 0 ? first.text : first.text.slice(0, cut);
}

/** Every literal piece of a pattern (for the markers a value may not contain). */
export function patternLiterals(source: string): string[] {
  const out: string[] = [];
  const walk = (parts: Part[]) => {
    for (const p of parts) {
      if ("text" in p) out.push(...p.text.split(/[ "]/).filter((t) => t.length > 1));
      else if ("optional" in p) walk(p.optional);
    }
  };
  walk(parse(source));
  return out;
}

/** The pattern as a GBNF expression; `holes` gives each hole's expression. */
export function patternGbnf(source: string, holes: Readonly<Record<string, string>>): string {
  const parts: string[] = [];
  for (const p of parse(source)) {
    if ("text" in p) parts.push(lit(p.text));
    else if ("hole" in p) {
      const expr = holes[p.hole];
      if (expr === undefined) throw new Error(`pattern ${source}: no expression for hole {${p.hole}}`);
      parts.push(expr);
    }
  }
  return parts.join(" ") || '""';
}

/** The first pattern whose required holes are all among `known`. */
export function choosePattern(patterns: readonly string[], known: readonly string[]): string | undefined {
  return patterns.find((p) => requiredHoles(p).every((h) => known.includes(h)));
}

/** A pattern's text with its holes filled (`{hole}` from `holes`, others empty), optional parts left out. */
export function fillPattern(pattern: string, holes: Readonly<Record<string, string>>): string {
  let out = "";
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      if (depth === 0) out += pattern[i + 1] ?? "";
      i++;
    } else if (c === "[") depth++;
    else if (c === "]") depth--;
    else if (depth > 0) continue;
    else if (c === "{") {
      const j = pattern.indexOf("}", i);
      out += holes[pattern.slice(i + 1, j)] ?? "";
      i = j;
    } else out += c;
  }
  return out;
}
