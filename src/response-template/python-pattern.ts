/**
 * Writing Python `regex` patterns for an exported response template (export.ts): literal markers
 * escaped, alternatives longest first (as transformers orders a literal list), and the format
 * language's marker patterns (patterns.ts: `<invoke name="{name}">`, `functions.{name}:{index}`)
 * translated with the same hole classes, the holes the template needs as named groups.
 */
import { HOLE_CLASS, OTHER_HOLE } from "../parse/patterns.js";

const SPECIAL = /[\\.^$*+?{}[\]|()#]/g;

/** A literal as Python regex text. */
export function pyLiteral(text: string): string {
  return text.replace(SPECIAL, (c) => `\\${c}`).replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r");
}

/** Any of the literals, longest first (the longer spelling wins where one is a prefix of another). */
export function pyAnyOf(literals: readonly string[]): string {
  const unique = [...new Set(literals)].sort((a, b) => b.length - a.length);
  return unique.length === 1 ? pyLiteral(unique[0]!) : `(?:${unique.map(pyLiteral).join("|")})`;
}

/** Any of the Python patterns, as one group. */
export function pyEither(patterns: readonly string[]): string {
  const unique = [...new Set(patterns)];
  return unique.length === 1 ? unique[0]! : `(?:${unique.join("|")})`;
}

/**
 * A format-language pattern as Python regex: a space is `\s+`, `"` either quote, `[...]` optional, `\`
 * escapes; a hole in `named` becomes a named group (`{name}` -> `(?P<name>...)`), any other hole a
 * plain class. Python's `regex` module allows one name in several alternatives, so a pattern list can
 * be joined with `pyEither` and still give one capture.
 */
export function pyPattern(source: string, named: ReadonlySet<string>): string {
  const hole = (name: string) => {
    const cls = HOLE_CLASS[name] ?? OTHER_HOLE;
    return named.has(name) ? `(?P<${name}>${cls})` : `(?:${cls})`;
  };
  let out = "";
  for (let i = 0; i < source.length; ) {
    const c = source[i]!;
    if (c === "\\") {
      out += pyLiteral(source[i + 1] ?? "");
      i += 2;
    } else if (c === "{") {
      const close = source.indexOf("}", i);
      out += hole(source.slice(i + 1, close));
      i = close + 1;
    } else if (c === " ") {
      while (source[i] === " ") i++;
      out += "\\s+";
    } else if (c === "[") {
      out += "(?:";
      i++;
    } else if (c === "]") {
      out += ")?";
      i++;
    } else if (c === '"') {
      out += `["']`;
      i++;
    } else {
      out += pyLiteral(c);
      i++;
    }
  }
  return out;
}

/** Whether a pattern is plain text (no hole, space, quote, optional part or escape). */
export function isPlainPattern(source: string): boolean {
  return !/[{ "[\]\\]/.test(source);
}

/**
 * The pattern with its named groups made plain (`(?P<name>...)` -> `(?:...)`): for a lookaround in
 * another field, whose captures transformers would refuse (named groups need a transform).
 */
export function pyUnnamed(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (c === "[") {
      // A class, copied whole: `(` is a plain character there. A `]` right after `[` or `[^` is literal.
      let j = i + 1;
      if (pattern[j] === "^") j++;
      if (pattern[j] === "]") j++;
      while (j < pattern.length && pattern[j] !== "]") j += pattern[j] === "\\" ? 2 : 1;
      out += pattern.slice(i, j + 1);
      i = j;
    } else if (pattern.startsWith("(?P<", i)) {
      out += "(?:";
      i = pattern.indexOf(">", i);
    } else out += c;
  }
  return out;
}
