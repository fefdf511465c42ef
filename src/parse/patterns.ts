/**
 * The pattern compiler of the format language (language.ts): a marker pattern such as
 * `<invoke name="{name}">` or `functions.{name}:{index}` becomes a matcher that returns the holes'
 * values. Patterns are matched against short, bounded texts (a tag, a call header), so a compiled
 * RegExp is fine; every hole is a character class that excludes the pattern's delimiters, which keeps
 * backtracking bounded.
 *
 * Syntax: `{hole}` captures; a space matches a run of whitespace; `"` matches `"` or `'` and the
 * matching closing quote; `[...]` is optional; `\` makes the next character literal.
 */
import { ChatwireError } from "../errors.js";

export type Holes = Record<string, string>;

export interface CompiledPattern {
  readonly source: string;
  /** The hole names in order. */
  readonly holes: readonly string[];
  /** The literal text before the first hole, space or optional part (`<parameter=`, `<invoke`). */
  readonly prefix: string;
  /** The whole text (trimmed) is this pattern. */
  whole(text: string): Holes | undefined;
  /** The trimmed text starts with this pattern. */
  start(text: string): Holes | undefined;
  /** The pattern occurs somewhere in the text. */
  find(text: string): Holes | undefined;
}

/** What each hole may hold. Tool names and keys never contain markup or whitespace. */
export const HOLE_CLASS: Readonly<Record<string, string>> = {
  name: "[^\\s\"'`<>(){}\\[\\],;]+",
  key: "[^\\s\"'<>=]+",
  id: "[^\\s\"'<>\\[\\]]+",
  index: "\\d+",
};
export const OTHER_HOLE = "[^\\s\"'<>]*";

interface Built {
  regex: string;
  holes: string[];
  /** Capture group numbers per hole (a quoted hole has two: one per quote kind). */
  groups: number[][];
}

const cache = new Map<string, CompiledPattern>();

/** Compiles a pattern (cached by its text); throws ChatwireError `invalid_format` for a bad one. */
export function compilePattern(source: string): CompiledPattern {
  const hit = cache.get(source);
  if (hit) return hit;
  const built = build(source);
  const body = built.regex;
  const whole = new RegExp(`^\\s*${body}\\s*$`);
  const start = new RegExp(`^\\s*${body}`);
  const find = new RegExp(body);
  const read = (m: RegExpExecArray | null): Holes | undefined => {
    if (m === null) return undefined;
    const out: Holes = {};
    built.holes.forEach((h, i) => {
      for (const g of built.groups[i]!) {
        const v = m[g];
        if (v !== undefined) {
          out[h] = v;
          return;
        }
      }
    });
    return out;
  };
  const compiled: CompiledPattern = {
    source,
    holes: built.holes,
    prefix: literalPrefix(source),
    whole: (text) => read(whole.exec(text)),
    start: (text) => read(start.exec(text)),
    find: (text) => read(find.exec(text)),
  };
  cache.set(source, compiled);
  return compiled;
}

/** The first of `patterns` whose whole matches `text`. */
export function matchWhole(patterns: readonly CompiledPattern[], text: string): Holes | undefined {
  for (const p of patterns) {
    const m = p.whole(text);
    if (m !== undefined) return m;
  }
  return undefined;
}

function escapeRegex(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

function build(source: string): Built {
  const holes: string[] = [];
  const groups: number[][] = [];
  let group = 0;
  let depth = 0;
  let regex = "";
  let i = 0;
  const bad = (why: string): never => {
    throw new ChatwireError("invalid_format", `pattern ${JSON.stringify(source)}: ${why}`);
  };
  const hole = (inQuote: boolean): string => {
    const close = source.indexOf("}", i);
    if (close < 0) bad("unclosed {");
    const name = source.slice(i + 1, close);
    if (!/^[A-Za-z_]+$/.test(name)) bad(`bad hole name ${JSON.stringify(name)}`);
    i = close + 1;
    holes.push(name);
    if (!inQuote) {
      groups.push([++group]);
      return `(${HOLE_CLASS[name] ?? OTHER_HOLE})`;
    }
    return name;
  };
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\\") {
      if (i + 1 >= source.length) bad("dangling \\");
      regex += escapeRegex(source[i + 1]!);
      i += 2;
    } else if (c === "{") {
      regex += hole(false);
    } else if (c === " ") {
      while (source[i] === " ") i++;
      regex += "\\s+";
    } else if (c === "[") {
      depth++;
      regex += "(?:";
      i++;
    } else if (c === "]") {
      if (depth === 0) bad("unbalanced ]");
      depth--;
      regex += ")?";
      i++;
    } else if (c === '"') {
      // `"{hole}"`: either quote kind, closed by the same one; the hole holds no quote of that kind.
      const close = source.indexOf('"', i + 1);
      if (close < 0) bad('unclosed "');
      const inner = source.slice(i + 1, close);
      if (/^\{[A-Za-z_]+\}$/.test(inner)) {
        i++;
        const name = hole(true);
        groups.push([group + 1, group + 2]);
        group += 2;
        // A known hole keeps its class inside quotes (an index is digits); any other hole is the text up
        // to the closing quote.
        const cls = HOLE_CLASS[name];
        regex += cls !== undefined ? `(?:"(${cls})"|'(${cls})')` : `(?:"([^"]*)"|'([^']*)')`;
        i = close + 1;
      } else {
        regex += `["']${[...inner].map(escapeRegex).join("")}["']`;
        i = close + 1;
      }
    } else {
      regex += escapeRegex(c);
      i++;
    }
  }
  if (depth !== 0) bad("unclosed [");
  return { regex, holes, groups };
}

function literalPrefix(source: string): string {
  let out = "";
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      out += source[i + 1] ?? "";
      i++;
    } else if (c === "{" || c === " " || c === "[" || c === '"') break;
    else out += c;
  }
  return out;
}
