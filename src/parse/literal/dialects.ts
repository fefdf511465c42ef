/**
 * Literal dialects as data. The literal readers (value-reader.ts, extent-scanner.ts) know no dialect
 * by name: everything that differs between JSON, Python literals and the Gemma family's argument
 * syntax is written here, and a new dialect is a new record (FunctionGemma differs from Gemma 4 only
 * in its quote token).
 */
import { escapeClass } from "../../regexp-escape.js";

/** How a string's body is decoded. */
export type StringEscapes =
  /** JSON: `\"`, `\\`, `\/`, `\b\f\n\r\t`, `\uXXXX`; any other escape is an error. */
  | "json"
  /** Python: JSON's plus `\'`, `\a`, `\v`, `\xXX`, `\UXXXXXXXX`, octal, line continuation; unknown escapes are kept. */
  | "python"
  /** None: the body is the text up to the closing quote, backslashes included. */
  | "none";

export interface StringQuote {
  /** Opens and closes the string (the same text on both sides). */
  readonly quote: string;
  readonly escapes: StringEscapes;
}

/** The argument list of a call written in the dialect: `f(a=1)` (Python), `f{a:1}` (Gemma). */
export interface ArgumentList {
  readonly open: string;
  readonly close: string;
  /** Between a name and its value. */
  readonly assign: string;
  /** Other separators read there too (a tolerated argument list: Gemma 4 writes both `k=v` and `k:v` in `(...)`). */
  readonly assignAlso?: readonly string[];
  /** `identifier`: names are Python identifiers; `bare`: any bare word. */
  readonly names: "identifier" | "bare";
  /**
   * The next name may follow a value without a comma (FunctionGemma: `{a:<escape>x<escape>b:<escape>y<escape>}`,
   * as vLLM's tests write it): the quote token already ends the value, so nothing is ambiguous.
   */
  readonly commaOptional?: boolean;
}

export interface LiteralDialect {
  readonly name: string;
  readonly strings: readonly StringQuote[];
  /** Python: `'''...'''` / `"""..."""` for the single-character quotes. */
  readonly tripleQuotes: boolean;
  /** Python: `r'...'` (raw) and `u'...'` prefixes. */
  readonly stringPrefixes: boolean;
  /** Python: adjacent string literals join (`'a' 'b'`). */
  readonly concatenation: boolean;
  /** Bare words that are values. */
  readonly constants: Readonly<Record<string, boolean | null>>;
  /** `json`: JSON numbers only; `python`: also `1_000`, `0x1F`, `.5`, `5.`, `+3` (written as JSON). */
  readonly numbers: "json" | "python";
  /** Characters of a bare word (a number, a constant, a bare key). */
  readonly wordChars: RegExp;
  /** `(...)` is a sequence (a Python tuple, written as a JSON array). */
  readonly tuples: boolean;
  /**
   * What a dict key may be: `string` (JSON), `literal` (Python: a string, or a number/constant that
   * json.dumps turns into a string), `bare` (Gemma: a bare word or a string).
   */
  readonly dictKeys: "string" | "literal" | "bare";
  /** The dialect's call argument list, when calls are written in it. */
  readonly args?: ArgumentList;
  /**
   * A quoted argument value is typed by the tool's schema when the schema allows no string for it
   * (`n:<escape>3<escape>` is 3 for an integer `n`): the dialect's templates quote every value.
   */
  readonly quotedValuesTyped?: boolean;
}

const JSON_CONSTANTS = { true: true, false: false, null: null } as const;
const PYTHON_CONSTANTS = { ...JSON_CONSTANTS, True: true, False: false, None: null } as const;

/** JSON (RFC 8259). Its bare words are what JSON.parse could read as a number or constant. */
export const JSON_LITERAL: LiteralDialect = {
  name: "json",
  strings: [{ quote: '"', escapes: "json" }],
  tripleQuotes: false,
  stringPrefixes: false,
  concatenation: false,
  constants: JSON_CONSTANTS,
  numbers: "json",
  wordChars: /[-+0-9.eEa-zA-Z]/,
  tuples: false,
  dictKeys: "string",
};

/**
 * What `ast.literal_eval` accepts, plus JSON's `true`/`false`/`null` (pythonic models write those
 * too). Arguments are keyword arguments, `f(a=1, b='x')`.
 */
export const PYTHON_LITERAL: LiteralDialect = {
  name: "python",
  strings: [
    { quote: "'", escapes: "python" },
    { quote: '"', escapes: "python" },
  ],
  tripleQuotes: true,
  stringPrefixes: true,
  concatenation: true,
  constants: PYTHON_CONSTANTS,
  numbers: "python",
  wordChars: /[A-Za-z0-9_.+\-$]/,
  tuples: true,
  dictKeys: "literal",
  args: { open: "(", close: ")", assign: "=", names: "identifier" },
};

/**
 * The Gemma family's argument syntax: bare keys, strings as raw text between two quote tokens. A
 * double-quoted string (Python escapes) is read too: models of the family sometimes write one.
 */
function gemmaDialect(name: string, quote: string, quotedValuesTyped = false): LiteralDialect {
  return {
    ...(quotedValuesTyped ? { quotedValuesTyped } : {}),
    name,
    strings: [
      { quote, escapes: "none" },
      { quote: '"', escapes: "python" },
    ],
    tripleQuotes: false,
    stringPrefixes: false,
    concatenation: false,
    constants: PYTHON_CONSTANTS,
    numbers: "python",
    wordChars: /[A-Za-z0-9_.+\-$]/,
    tuples: false,
    dictKeys: "bare",
    args: { open: "{", close: "}", assign: ":", names: "bare", ...(quotedValuesTyped ? { commaOptional: true } : {}) },
  };
}

/** Gemma 4 (macro format_argument): `{city:<|"|>London<|"|>,n:3}`. */
export const GEMMA4_LITERAL: LiteralDialect = gemmaDialect("gemma", '<|"|>');

/**
 * FunctionGemma (google/functiongemma-270m-it): `{city:<escape>London<escape>,n:3}`. vLLM's template
 * writes every value quoted (`n:<escape>3<escape>`), so quoted values are typed by the schema.
 */
export const FUNCTIONGEMMA_LITERAL: LiteralDialect = gemmaDialect("functiongemma", "<escape>", true);

/** The dialects a format may name. */
export const LITERAL_DIALECTS = {
  json: JSON_LITERAL,
  python: PYTHON_LITERAL,
  gemma: GEMMA4_LITERAL,
  functiongemma: FUNCTIONGEMMA_LITERAL,
} as const satisfies Record<string, LiteralDialect>;

export type LiteralDialectName = keyof typeof LITERAL_DIALECTS;
/** The dialects calls are written in (those with an argument list). */
export type CallDialectName = "python" | "gemma" | "functiongemma";

export function literalDialect(d: LiteralDialect | LiteralDialectName): LiteralDialect {
  return typeof d === "string" ? LITERAL_DIALECTS[d] : d;
}

/**
 * What the literal readers (value-reader.ts, extent-scanner.ts) derive once from a dialect record,
 * shared by both and cached per record.
 */
export interface CompiledDialect {
  readonly d: LiteralDialect;
  /** Quotes by their first character. */
  readonly quotes: ReadonlyMap<string, readonly StringQuote[]>;
  /** For each single-character quote with escapes: a search for it or a backslash. */
  readonly stops: ReadonlyMap<string, RegExp>;
  /** Characters a value may start with. */
  readonly valueStart: ReadonlySet<string>;
  readonly closers: ReadonlySet<string>;
}

const compiledDialects = new WeakMap<LiteralDialect, CompiledDialect>();

export function compiledDialect(dialect: LiteralDialect | LiteralDialectName): CompiledDialect {
  const d = literalDialect(dialect);
  const known = compiledDialects.get(d);
  if (known !== undefined) return known;
  const quotes = new Map<string, StringQuote[]>();
  const stops = new Map<string, RegExp>();
  for (const q of d.strings) {
    const first = q.quote[0]!;
    quotes.set(first, [...(quotes.get(first) ?? []), q]);
    if (q.quote.length === 1 && q.escapes !== "none") stops.set(q.quote, new RegExp(`[${escapeClass(q.quote)}\\\\]`, "g"));
  }
  const valueStart = new Set<string>(["{", "[", "-", ..."0123456789", ...quotes.keys(), ...Object.keys(d.constants).map((k) => k[0]!)]);
  if (d.tuples) valueStart.add("(");
  const closers = new Set(["]", "}", ")"]);
  if (d.args !== undefined) closers.add(d.args.close);
  const c: CompiledDialect = { d, quotes, stops, valueStart, closers };
  compiledDialects.set(d, c);
  return c;
}

/** True when `ch` can begin a value of `dialect`. */
export function startsValue(ch: string, dialect: LiteralDialect | LiteralDialectName): boolean {
  return compiledDialect(dialect).valueStart.has(ch);
}
