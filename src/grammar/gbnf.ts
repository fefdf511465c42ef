/**
 * A GBNF grammar (llama.cpp's grammar syntax, see llama.cpp grammars/README.md) under construction:
 * named rules in insertion order, one rule per line, so the output is easy to read and diff.
 * Rule bodies are GBNF expressions built with the helpers below; names are made unique here.
 */

/** A GBNF rule name: letters, digits and dashes only. */
export function ruleName(hint: string): string {
  const name = hint
    .replace(/[^A-Za-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
  return name === "" ? "r" : name;
}

/** A GBNF string literal. Non-ASCII characters stay as they are (llama.cpp reads UTF-8 literals). */
export function lit(text: string): string {
  let out = '"';
  for (const ch of text) out += escapeChar(ch, '"');
  return `${out}"`;
}

/** A GBNF character class from single characters, e.g. `cls(["a", "b"], true)` is `[^ab]`. */
export function cls(chars: Iterable<string>, negate = false): string {
  let out = negate ? "[^" : "[";
  for (const ch of chars) out += escapeChar(ch, "]-^");
  return `${out}]`;
}

/** A GBNF character class from code point ranges, e.g. `[a-z_]`, `[^"\\\x00-\x1f]`. */
export function rangeClass(ranges: Iterable<readonly [number, number]>, negate = false): string {
  let out = negate ? "[^" : "[";
  for (const [lo, hi] of ranges) {
    out += escapeChar(String.fromCodePoint(lo), "]-^");
    if (hi > lo) out += `-${escapeChar(String.fromCodePoint(hi), "]-^")}`;
  }
  return `${out}]`;
}

function escapeChar(ch: string, special: string): string {
  if (ch === "\\") return "\\\\";
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  if (ch === "\t") return "\\t";
  const code = ch.codePointAt(0) as number;
  // llama.cpp knows the escapes \" \[ \] but not \- or \^, so those are written as hex.
  if (special.includes(ch)) return ch === '"' || ch === "]" ? `\\${ch}` : `\\x${code.toString(16)}`;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, "0")}`;
  return ch;
}

/** Alternatives, grouped so they can sit inside a sequence. */
export function alt(options: readonly string[]): string {
  const unique = [...new Set(options)];
  return unique.length === 1 ? (unique[0] as string) : `(${unique.join(" | ")})`;
}

/**
 * What a rule means, for tests that sample the grammar and compare the parse with what was derived:
 * a call to `name`; a whole arguments object; one parameter's value (`decode` says how its text reads
 * back: JSON, a Python literal, or raw text typed by the schema); a raw string value; reasoning or
 * content text. llama.cpp never sees these; they are not printed.
 */
export type Capture =
  | { kind: "call"; name: string }
  | { kind: "args"; decode: "json" | "python" | "gemma"; quote?: string }
  | { kind: "param"; key: string; decode: "json" | "python" | "raw" | "gemma" }
  | { kind: "raw-string" }
  | { kind: "reasoning" }
  | { kind: "content" };

export class GbnfBuilder {
  private readonly rules = new Map<string, string>();
  private readonly comments: string[] = [];
  /**
   * Markers a quoted string value may not contain, because the parser would end the call there (set
   * before the first string rule is added).
   */
  stringMarkers: readonly string[] = [];
  /** Every marker of the format, for strings written as raw text (Gemma's `<|"|>` strings). */
  textMarkers: readonly string[] = [];
  /**
   * The quote token of the Gemma family's raw strings, from the payload's literal dialect (Gemma 4
   * `<|"|>`, FunctionGemma `<escape>`); set before the first `gemma-*` rule is added.
   */
  stringQuote = '<|"|>';
  /** Rule name -> what the rule means (see Capture). */
  readonly captures = new Map<string, Capture>();

  /** Records what rule `name` means (it must not mean something else already); returns the name. */
  capture(name: string, capture: Capture): string {
    const known = this.captures.get(name);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(capture)) {
      throw new Error(`grammar rule ${name} captures both ${JSON.stringify(known)} and ${JSON.stringify(capture)}`);
    }
    this.captures.set(name, capture);
    return name;
  }

  /** Adds a rule under `hint` (made unique if the name is taken by a different body); returns its name. */
  add(hint: string, body: string): string {
    const base = ruleName(hint);
    let name = base;
    for (let n = 2; this.rules.has(name) && this.rules.get(name) !== body; n++) name = `${base}-${n}`;
    this.rules.set(name, body);
    return name;
  }

  /** Reserves a unique name now and sets its body later (recursive schemas refer to themselves). */
  reserve(hint: string): { name: string; define(body: string): void } {
    const base = ruleName(hint);
    let name = base;
    for (let n = 2; this.rules.has(name); n++) name = `${base}-${n}`;
    this.rules.set(name, "");
    return { name, define: (body) => void this.rules.set(name, body) };
  }

  has(name: string): boolean {
    return this.rules.has(name);
  }

  /** A comment line at the top of the grammar. */
  comment(text: string): void {
    for (const line of text.split("\n")) this.comments.push(`# ${line}`);
  }

  toString(): string {
    const lines = [...this.comments];
    for (const [name, body] of this.rules) lines.push(`${name} ::= ${body}`);
    return `${lines.join("\n")}\n`;
  }
}
