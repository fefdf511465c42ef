/**
 * The part of Python's regex syntax a response template's anchors use, read into pieces the format
 * language can say: literal text, a whitespace run (`\s*`, `\s+`), an alternation of literals
 * (`(?:<|im_end|>|<|endoftext|>)`), and named groups (`(?P<name>\w+)`, `(?P<key>[^>\n]+)`,
 * `(?P<value>.*?)`). Anything else is not guessed at: `readPattern` names the construct it cannot read.
 */

export type Piece =
  | { kind: "literal"; text: string }
  | { kind: "space"; min: 0 | 1 }
  | { kind: "alternatives"; options: readonly string[] }
  /** `class` is the group's body as written; `lazyAny` for `.*?` / `.+?` (a value: anything, shortest). */
  | { kind: "group"; name: string; body: string; lazyAny: boolean };

export type PatternReading = { ok: true; pieces: Piece[] } | { ok: false; construct: string; at: number };

/** Characters that are syntax in a Python regex outside a class. */
const META = new Set([".", "^", "$", "*", "+", "?", "(", ")", "[", "]", "|", "\\"]);
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v" };

/** A named group body chatwire's holes can stand for: one-or-more of a class, or a lazy "anything". */
const HOLE_BODY = /^(?:\\w\+|\[\^(?:\\.|[^\]\\])+\]\+|\.\*\?|\.\+\?)$/;

/** The named groups a pattern declares (`(?P<name>` and `(?<name>`), whatever else it holds. */
export function namedGroups(pattern: string): string[] {
  const out: string[] = [];
  const re = /\\.|\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/g;
  for (let m = re.exec(pattern); m !== null; m = re.exec(pattern)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/** Reads one literal character (plain or escaped) at `i`: its text and length, or undefined. */
export function literalAt(src: string, i: number): { text: string; length: number } | undefined {
  const c = src[i]!;
  if (c === "\\") {
    const next = src[i + 1];
    if (next === undefined) return undefined;
    if (ESCAPES[next] !== undefined) return { text: ESCAPES[next]!, length: 2 };
    if (/[A-Za-z0-9]/.test(next)) return undefined; // \s \w \d \b \A \Z \1 ...: classes, anchors, backreferences
    return { text: next, length: 2 };
  }
  if (META.has(c)) return undefined;
  if (c === "{" && /^\{\d*,?\d*\}/.test(src.slice(i)) && /^\{\d/.test(src.slice(i))) return undefined; // a quantifier
  return { text: c, length: 1 };
}

/** The end of a group opened at `i` (the index of its `)`), honouring escapes and classes. */
export function groupEnd(src: string, i: number): number {
  let depth = 0;
  let inClass = false;
  for (let j = i; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return j;
  }
  return -1;
}

/** `a|b|c` of literals only, or undefined. */
function literalAlternatives(body: string): string[] | undefined {
  const options: string[] = [];
  let current = "";
  for (let i = 0; i < body.length; ) {
    if (body[i] === "|") {
      options.push(current);
      current = "";
      i++;
      continue;
    }
    const lit = literalAt(body, i);
    if (lit === undefined) return undefined;
    current += lit.text;
    i += lit.length;
  }
  options.push(current);
  return options.every((o) => o !== "") ? options : undefined;
}

function describe(src: string, i: number): string {
  const c = src[i]!;
  if (c === "\\") return `the escape \\${src[i + 1] ?? ""}`;
  if (c === "(") return src.startsWith("(?=", i) || src.startsWith("(?!", i) || src.startsWith("(?<=", i) || src.startsWith("(?<!", i) ? "a lookaround" : "a group other than a named hole or a literal alternation";
  if (c === "[") return "a character class outside a named group";
  if (c === "." ) return "the wildcard .";
  if (c === "^" || c === "$") return `the anchor ${c}`;
  if (c === "|") return "an alternation outside a group";
  return `the quantifier ${c}`;
}

/** The pattern's top-level alternatives (`a|b(?:c|d)` -> `a`, `b(?:c|d)`), honouring escapes, classes and groups. */
export function topLevelAlternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let from = 0;
  for (let j = 0; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(src.slice(from, j));
      from = j + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}

/** Whether `src` is one lookaround group `(?=...)` (`kind` "(?=") or a run of them, and nothing else. */
export function onlyLookarounds(src: string, kind: "(?=" | "(?<="): boolean {
  let i = 0;
  while (i < src.length) {
    if (!src.startsWith(kind, i)) return false;
    const end = groupEnd(src, i);
    if (end < 0) return false;
    i = end + 1;
  }
  return src.length > 0;
}

export interface ReadOptions {
  /** `\n?` reads as a whitespace run (a tag pattern's layout around a value, which chatwire trims). */
  optionalNewline?: boolean;
}

/** Reads a pattern into pieces, or names the first construct it cannot read and where. */
export function readPattern(src: string, options: ReadOptions = {}): PatternReading {
  const pieces: Piece[] = [];
  const pushLiteral = (text: string) => {
    const last = pieces[pieces.length - 1];
    if (last?.kind === "literal") pieces[pieces.length - 1] = { kind: "literal", text: last.text + text };
    else pieces.push({ kind: "literal", text });
  };
  for (let i = 0; i < src.length; ) {
    if (src.startsWith("\\s*", i) || src.startsWith("\\s+", i) || (options.optionalNewline === true && src.startsWith("\\n?", i))) {
      pieces.push({ kind: "space", min: src[i + 2] === "+" ? 1 : 0 });
      i += 3;
      continue;
    }
    const lit = literalAt(src, i);
    if (lit !== undefined) {
      const after = src[i + lit.length];
      if (after === "*" || after === "+" || after === "?" || (after === "{" && /^\{\d/.test(src.slice(i + lit.length)))) {
        return { ok: false, construct: `the quantifier ${after} on ${JSON.stringify(lit.text)}`, at: i + lit.length };
      }
      pushLiteral(lit.text);
      i += lit.length;
      continue;
    }
    if (src[i] === "(") {
      const end = groupEnd(src, i);
      if (end < 0) return { ok: false, construct: "an unclosed group", at: i };
      // `(?:\s*(?=...))?`: whitespace, only where something follows (an exported close takes the layout
      // between two calls this way). Whitespace at a marker's end is chatwire's layout either way.
      if (/^\(\?:\\s[*+]\(\?=/.test(src.slice(i)) && groupEnd(src, i + 6) === end - 1 && src[end + 1] === "?") {
        pieces.push({ kind: "space", min: 0 });
        i = end + 2;
        continue;
      }
      const quantified = /[*+?{]/.test(src[end + 1] ?? "");
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(src.slice(i));
      if (named !== null && !quantified) {
        const body = src.slice(i + named[0].length, end);
        if (!HOLE_BODY.test(body)) return { ok: false, construct: `the named group ${named[1]}'s body ${body}`, at: i };
        pieces.push({ kind: "group", name: named[1]!, body, lazyAny: body.startsWith(".") });
        i = end + 1;
        continue;
      }
      if (src.startsWith("(?:", i) && !quantified) {
        const options = literalAlternatives(src.slice(i + 3, end));
        if (options !== undefined) {
          pieces.push({ kind: "alternatives", options });
          i = end + 1;
          continue;
        }
      }
      if (quantified) return { ok: false, construct: `a quantified group ${src.slice(i, end + 2)}`, at: i };
    }
    return { ok: false, construct: describe(src, i), at: i };
  }
  return { ok: true, pieces };
}
