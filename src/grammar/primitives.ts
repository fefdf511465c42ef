/**
 * The shared terminal rules of argument values, in the three spellings the formats use: JSON (most
 * families), Python literals (pythonic: `'x'`, `True`, `None`) and raw text (qwen3-coder parameter
 * values, where a string is the bare text and other types are their literals).
 * The JSON rules follow the shape of llama.cpp's json-schema-to-grammar primitives: optional
 * whitespace after every value, at most one newline plus indentation.
 */
import { lit, type GbnfBuilder } from "./gbnf.js";
import { MAX_WHITESPACE, textWithout } from "./text-rules.js";

export type ValueSyntax = "json" | "python" | "raw" | "gemma";

const PY_ESCAPE = '[\\\\] (["\'\\\\nrt] | "x" [0-9a-fA-F]{2} | "u" ([0-9a-cA-Ce-fE-F] [0-9a-fA-F]{3} | [dD] [0-7] [0-9a-fA-F]{2}))';
const JSON_ESCAPE = '[\\\\] (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})';

const BODIES: Record<string, string> = {
  space: '| " " | "\\n" [ \\t]{0,20}',
  ws: `[ \\t\\n]{0,${MAX_WHITESPACE}}`,
  "integral-part": "[0] | [1-9] [0-9]{0,15}",
  "json-char": `[^"\\\\\\x7f\\x00-\\x1f] | ${JSON_ESCAPE}`,
  // Python's escapes that every reader agrees on: no `\N{...}`, octal, line continuations or lone surrogates.
  "py-char-sq": `[^'\\\\\\x00-\\x1f] | ${PY_ESCAPE}`,
  "py-char-dq": `[^"\\\\\\x00-\\x1f] | ${PY_ESCAPE}`,
  // No `-0`: JSON reads it as -0, Python and the tagged parsers as 0.
  "raw-integer": '"0" | "-"? [1-9] [0-9]{0,15}',
  "raw-number": '("-"? integral-part "." [0-9]{1,16} | raw-integer) ([eE] [-+]? [0-9]{1,2})?',
  integer: "raw-integer space",
  number: "raw-number space",
  "json-string": '"\\"" json-chars "\\"" space',
  "json-boolean": '("true" | "false") space',
  "json-null": '"null" space',
  "json-value": "json-object | json-array | json-string | number | json-boolean | json-null",
  "json-object": '"{" space (json-string ":" space json-value ("," space json-string ":" space json-value)*)? "}" space',
  "json-array": '"[" space (json-value ("," space json-value)*)? "]" space',
  "py-string": "(\"'\" py-chars-sq \"'\" | \"\\\"\" py-chars-dq \"\\\"\") space",
  "py-boolean": '("True" | "False") space',
  "py-none": '"None" space',
  "py-value": "py-dict | py-list | py-string | number | py-boolean | py-none",
  "py-dict": '"{" space (py-string ":" space py-value ("," space py-string ":" space py-value)*)? "}" space',
  "py-list": '"[" space (py-value ("," space py-value)*)? "]" space',
  // The Gemma family: strings are raw text between two quote tokens (builder.stringQuote, written by
  // primitive()), dict keys bare, no spaces.
  "gemma-key": "[a-zA-Z_] [a-zA-Z0-9_]{0,63}",
  "gemma-value": "gemma-dict | gemma-list | gemma-string | raw-number | raw-boolean | raw-null",
  "gemma-dict": '"{" (gemma-key ":" gemma-value ("," gemma-key ":" gemma-value)*)? "}"',
  "gemma-list": '"[" (gemma-value ("," gemma-value)*)? "]"',
  "raw-boolean": '"true" | "false"',
  "raw-null": '"null"',
};

/** The insides of quoted strings: any number of characters, bounded runs of spaces, no string markers. */
const STRING_BODIES: Record<string, { quote: string; atom: string }> = {
  "json-chars": { quote: '"', atom: JSON_ESCAPE },
  "py-chars-sq": { quote: "'", atom: PY_ESCAPE },
  "py-chars-dq": { quote: '"', atom: PY_ESCAPE },
};

/** Which primitive rules each rule refers to, so adding one adds what it needs. */
const NEEDS: Record<string, string[]> = {
  "raw-number": ["integral-part", "raw-integer"],
  integer: ["raw-integer", "space"],
  number: ["raw-number", "space"],
  "json-string": ["json-chars", "space"],
  "json-boolean": ["space"],
  "json-null": ["space"],
  "json-value": ["json-object", "json-array", "json-string", "number", "json-boolean", "json-null"],
  "json-object": ["space", "json-string", "json-value"],
  "json-array": ["space", "json-value"],
  "py-string": ["py-chars-sq", "py-chars-dq", "space"],
  "py-boolean": ["space"],
  "py-none": ["space"],
  "py-value": ["py-dict", "py-list", "py-string", "number", "py-boolean", "py-none"],
  "py-dict": ["space", "py-string", "py-value"],
  "py-list": ["space", "py-value"],
  "gemma-string": ["gemma-chars"],
  "gemma-value": ["gemma-dict", "gemma-list", "gemma-string", "raw-number", "raw-boolean", "raw-null"],
  "gemma-dict": ["gemma-key", "gemma-value"],
  "gemma-list": ["gemma-value"],
};

/** Adds a primitive rule (and the ones it refers to) once; returns its name. */
export function primitive(builder: GbnfBuilder, name: string): string {
  if (!builder.has(name)) {
    if (name === "gemma-chars") {
      // Raw text: no quote token (it would end the string) and no marker of the format.
      textWithout(builder, name, [builder.stringQuote, ...builder.stringMarkers, ...builder.textMarkers]);
      return name;
    }
    if (name === "gemma-string") {
      builder.add(name, `${lit(builder.stringQuote)} gemma-chars ${lit(builder.stringQuote)}`);
      primitive(builder, "gemma-chars");
      return name;
    }
    const inside = STRING_BODIES[name];
    if (inside !== undefined) {
      const quote = inside.quote;
      textWithout(builder, name, builder.stringMarkers, {
        exclude: `${quote === '"' ? '"' : "'"}\\\\\\x00-\\x1f${quote === '"' ? "\\x7f" : ""}`,
        excluded: (ch) => ch === quote || ch === "\\" || ch < " " || (quote === '"' && ch === "\x7f"),
        atoms: [inside.atom],
      });
      return name;
    }
    const body = BODIES[name];
    if (body === undefined) throw new Error(`no primitive rule ${name}`);
    builder.add(name, body);
    for (const need of NEEDS[name] ?? []) primitive(builder, need);
  }
  return name;
}

/** The primitive for a JSON Schema scalar type in a syntax (raw strings are the family's own rule). */
export function scalarRule(builder: GbnfBuilder, type: "string" | "integer" | "number" | "boolean" | "null", syntax: ValueSyntax): string {
  const table: Record<ValueSyntax, Record<string, string>> = {
    json: { string: "json-string", integer: "integer", number: "number", boolean: "json-boolean", null: "json-null" },
    python: { string: "py-string", integer: "integer", number: "number", boolean: "py-boolean", null: "py-none" },
    raw: { string: "json-string", integer: "raw-integer", number: "raw-number", boolean: "raw-boolean", null: "raw-null" },
    gemma: { string: "gemma-string", integer: "raw-integer", number: "raw-number", boolean: "raw-boolean", null: "raw-null" },
  };
  return primitive(builder, table[syntax][type] as string);
}

/** Any value at all, in a syntax (a schema without constraints, or one we relax). */
export function anyValueRule(builder: GbnfBuilder, syntax: ValueSyntax): string {
  return primitive(builder, syntax === "python" ? "py-value" : syntax === "gemma" ? "gemma-value" : "json-value");
}
