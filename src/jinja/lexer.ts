/**
 * A Jinja2-exact lexer that emits @huggingface/jinja's Token[] so its parser can be reused.
 *
 * Why our own: @huggingface/jinja pre-processes whitespace with regexes that differ from Jinja2 in
 * several places (`{%+`, lstrip before `{%-`, comments, CRLF, `{% raw %}`, the `generation` tag,
 * unknown string escapes, `1e5` floats). This file follows jinja2/lexer.py (3.1) rule by rule with the
 * settings transformers uses: trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False.
 * https://jinja.palletsprojects.com/en/3.1.x/templates/#whitespace-control
 */
import type { tokenize } from "@huggingface/jinja";
import { ChatwireError } from "../errors.js";

/** @huggingface/jinja's token, as its parser reads it (the class itself is not exported). */
export type Token = ReturnType<typeof tokenize>[number];
type TokenType = Token["type"];

/** Where each token starts in the (newline-normalised) source, for syntax error positions. */
const POSITIONS = new WeakMap<Token, number>();
let cursor = 0;

function tok(value: string, type: TokenType): Token {
  const t = { value, type } as Token;
  POSITIONS.set(t, cursor);
  return t;
}

export function tokenPosition(t: Token | undefined): number | undefined {
  return t === undefined ? undefined : POSITIONS.get(t);
}

/**
 * `(x,)` is a one-item tuple in Jinja2, but @huggingface/jinja's parser rejects the trailing comma. We
 * emit this placeholder name after such a comma; the compiler drops it from the tuple.
 */
export const TRAILING_COMMA = "__chatwire_trailing_comma__";

/** Placeholder name for the empty tuple `()`. */
export const EMPTY_TUPLE = "__chatwire_empty_tuple__";

/** Marks a comparison operator that continues a chain (`b < c` in `a < b < c`). */
export const CHAINED = "chain:";
const CHAIN_BOUNDARY = new Set(["and", "or", "not", "if", "else", "in", "is"]);

/** Prefix of the placeholder name that carries an int literal too big for a JS number. */
export const BIG_INT_PREFIX = "__chatwire_int__";

/** Names after which `(` opens a group, not a call (`x in (1,)`, `not (a)`). */
const KEYWORDS = new Set(["in", "not", "and", "or", "if", "else", "elif", "is", "for", "set", "return"]);

/** Jinja2 operators, longest first, mapped to the token types the parser expects. */
const OPERATORS: ReadonlyArray<readonly [string, TokenType]> = [
  ["**", "ExponentiationBinaryOperator"],
  ["//", "MultiplicativeBinaryOperator"],
  ["==", "ComparisonBinaryOperator"],
  ["!=", "ComparisonBinaryOperator"],
  ["<=", "ComparisonBinaryOperator"],
  [">=", "ComparisonBinaryOperator"],
  ["<", "ComparisonBinaryOperator"],
  [">", "ComparisonBinaryOperator"],
  ["+", "AdditiveBinaryOperator"],
  ["-", "AdditiveBinaryOperator"],
  ["~", "AdditiveBinaryOperator"],
  ["*", "MultiplicativeBinaryOperator"],
  ["/", "MultiplicativeBinaryOperator"],
  ["%", "MultiplicativeBinaryOperator"],
  ["(", "OpenParen"],
  [")", "CloseParen"],
  ["[", "OpenSquareBracket"],
  ["]", "CloseSquareBracket"],
  ["{", "OpenCurlyBracket"],
  ["}", "CloseCurlyBracket"],
  [",", "Comma"],
  [".", "Dot"],
  [":", "Colon"],
  ["|", "Pipe"],
  ["=", "Equals"],
];

const FLOAT_RE = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy;
const INTEGER_RE = /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy;
const NAME_RE = /[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}_]*/uy;
const STRING_RE = /'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"/sy;
const WHITESPACE_RE = /\s+/y;
/** Root scan: text up to the next tag start; group 2 is the tag kind, group 3 its whitespace sign. */
const TAG_START_RE = /\{([{%#])([-+]?)/g;
const RAW_BEGIN_RE = /\{%([-+]?)\s*raw\s*(-?)%\}/y;
const RAW_END_RE = /\{%([-+]?)\s*endraw\s*([-+]?)%\}/g;
const GENERATION_RE = /\s*(end)?generation\s*[-+]?%\}/y;

/**
 * transformers' `{% generation %}` extension renders its body through a caller macro, so the body is a
 * scope of its own (a set inside does not leak). We lex it as a filter block with this reserved,
 * identity filter name; the compiler gives filter blocks their own frame.
 */
export const GENERATION_FILTER = "__chatwire_generation__";

function syntaxError(message: string, position: number): ChatwireError {
  return new ChatwireError("invalid_template", `${message} (at offset ${position})`, { position });
}

/** Python's `unicode-escape` decoding of a string literal body, as Jinja2 applies it. */
export function decodeStringLiteral(body: string, position: number): string {
  if (!body.includes("\\")) return body;
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = body[++i];
    switch (next) {
      case "\n":
        break; // backslash-newline is a line continuation
      case "\\":
      case "'":
      case '"':
        out += next;
        break;
      case "a":
        out += "\x07";
        break;
      case "b":
        out += "\b";
        break;
      case "f":
        out += "\f";
        break;
      case "n":
        out += "\n";
        break;
      case "r":
        out += "\r";
        break;
      case "t":
        out += "\t";
        break;
      case "v":
        out += "\v";
        break;
      case "x":
      case "u":
      case "U": {
        const width = next === "x" ? 2 : next === "u" ? 4 : 8;
        const hex = body.slice(i + 1, i + 1 + width);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== width) {
          throw syntaxError(`truncated \\${next} escape in string literal`, position);
        }
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) throw syntaxError("illegal Unicode character in string literal", position);
        out += String.fromCodePoint(code);
        i += width;
        break;
      }
      default: {
        const octal = /^[0-7]{1,3}/.exec(body.slice(i, i + 3));
        if (octal) {
          out += String.fromCodePoint(parseInt(octal[0], 8));
          i += octal[0].length - 1;
        } else {
          // Python keeps unknown escapes such as `\d` verbatim.
          out += "\\" + (next ?? "");
        }
      }
    }
  }
  return out;
}

/** Normalise a Python number literal into the text the parser turns into Integer/FloatLiteral. */
function numberToken(text: string, isFloat: boolean): Token {
  const clean = text.replace(/_/g, "");
  if (isFloat) {
    // The parser makes a FloatLiteral only when the text contains a dot: keep `1e5` a float.
    return tok(clean.includes(".") ? clean : clean.replace(/^(\d+)/, "$1.0"), "NumericLiteral");
  }
  const lower = clean.toLowerCase();
  const big = lower.startsWith("0b") || lower.startsWith("0o") || lower.startsWith("0x") ? BigInt(lower) : BigInt(clean);
  // The parser stores literals as JS numbers; an int beyond 2**53 travels as a reserved name instead.
  if (big > 9007199254740991n) return tok(BIG_INT_PREFIX + big.toString(), "Identifier");
  return tok(big.toString(), "NumericLiteral");
}

/** Jinja2 normalises every line break to `\n` and drops one trailing newline. */
function normalizeSource(source: string): string {
  let src = source.includes("\r") ? source.replace(/\r\n?/g, "\n") : source;
  if (src.endsWith("\n")) src = src.slice(0, -1);
  return src;
}

/** The lstrip_blocks rule: drop spaces/tabs between the last line start and a block/comment tag. */
function lstripText(text: string, lineStarting: boolean): string {
  const lineStart = text.lastIndexOf("\n") + 1;
  if (lineStart === 0 && !lineStarting) return text;
  for (let i = lineStart; i < text.length; i++) {
    if (!/\s/.test(text[i]!)) return text;
  }
  return text.slice(0, lineStart);
}

/** Tokenize a template exactly as Jinja2 would, for @huggingface/jinja's parser. */
export function tokenizeTemplate(source: string): Token[] {
  const src = normalizeSource(source);
  const tokens: Token[] = [];
  let pos = 0;
  let lineStarting = true;

  const pushText = (text: string): void => {
    if (text === "") return;
    const last = tokens[tokens.length - 1];
    if (last && last.type === "Text") last.value += text;
    else tokens.push(tok(text, "Text"));
  };

  while (pos < src.length) {
    TAG_START_RE.lastIndex = pos;
    const m = TAG_START_RE.exec(src);
    if (!m) {
      cursor = pos;
      pushText(src.slice(pos));
      break;
    }
    let text = src.slice(pos, m.index);
    cursor = pos;
    const kind = m[1]!;
    let sign = m[2]!;
    const tagStart = m.index;
    RAW_BEGIN_RE.lastIndex = tagStart;
    const raw = kind === "%" ? RAW_BEGIN_RE.exec(src) : null;
    if (raw) sign = raw[1]!;
    if (sign === "-") text = text.trimEnd();
    else if (sign !== "+" && kind !== "{") text = lstripText(text, lineStarting);
    pushText(text);

    cursor = tagStart;
    if (raw) {
      pos = readRaw(src, tagStart, raw, pushText);
    } else if (kind === "#") {
      pos = skipComment(src, m.index + m[0].length);
    } else if (kind === "%" && isGenerationTag(src, m.index + m[0].length)) {
      GENERATION_RE.lastIndex = m.index + m[0].length;
      const end = GENERATION_RE.exec(src)![1] !== undefined;
      tokens.push(tok("{%", "OpenStatement"));
      if (end) tokens.push(tok("endfilter", "Identifier"));
      else tokens.push(tok("filter", "Identifier"), tok(GENERATION_FILTER, "Identifier"));
      tokens.push(tok("%}", "CloseStatement"));
      pos = afterBlockEnd(src, GENERATION_RE.lastIndex, src[GENERATION_RE.lastIndex - 3] ?? "");
    } else {
      pos = lexTag(src, m.index + m[0].length, kind === "{" ? "expression" : "statement", tokens);
    }
    lineStarting = src[pos - 1] === "\n" || pos === 0;
  }
  return tokens;
}

function isGenerationTag(src: string, at: number): boolean {
  GENERATION_RE.lastIndex = at;
  return GENERATION_RE.test(src);
}

/** Position after a block end (`%}`), applying `-%}` (strip all whitespace) or trim_blocks (one `\n`). */
function afterBlockEnd(src: string, end: number, sign: string): number {
  let p = end;
  if (sign === "-") {
    while (p < src.length && /\s/.test(src[p]!)) p++;
  } else if (sign !== "+" && src[p] === "\n") {
    p++;
  }
  return p;
}

function skipComment(src: string, from: number): number {
  const close = src.indexOf("#}", from);
  if (close < 0) throw syntaxError("Missing end of comment tag", from);
  return afterBlockEnd(src, close + 2, src[close - 1] === "-" || src[close - 1] === "+" ? src[close - 1]! : "");
}

function readRaw(src: string, tagStart: number, raw: RegExpExecArray, pushText: (t: string) => void): number {
  // Jinja2's raw_begin rule has no trim_blocks suffix: a plain `%}` keeps the newline after it.
  let pos = afterBlockEnd(src, tagStart + raw[0].length, raw[2] === "-" ? "-" : "+");
  RAW_END_RE.lastIndex = pos;
  const end = RAW_END_RE.exec(src);
  if (!end) throw syntaxError("Missing end of raw directive", tagStart);
  let body = src.slice(pos, end.index);
  if (end[1] === "-") body = body.trimEnd();
  else if (end[1] !== "+") body = lstripText(body, src[pos - 1] === "\n");
  pushText(body);
  pos = afterBlockEnd(src, end.index + end[0].length, end[2]!);
  return pos;
}

/** Lex the inside of `{{ ... }}` or `{% ... %}`; returns the position after the closing tag. */
function lexTag(src: string, from: number, mode: "expression" | "statement", tokens: Token[]): number {
  tokens.push(mode === "expression" ? tok("{{", "OpenExpression") : tok("{%", "OpenStatement"));
  const balance: string[] = [];
  const grouping: boolean[] = [];
  // Per bracket depth: whether a comparison was seen since the last and/or/not/if/else/comma, so that
  // `a < b < c` can be marked as a Python chained comparison (the parser would nest it as (a < b) < c).
  const comparing: boolean[] = [false];
  let pos = from;
  for (;;) {
    cursor = pos;
    if (pos >= src.length) throw syntaxError(`unexpected end of template, expected '${mode === "expression" ? "}}" : "%}"}'`, from);
    if (balance.length === 0) {
      const close = mode === "expression" ? "}}" : "%}";
      for (const sign of ["-", "+", ""]) {
        if (sign === "+" && mode === "expression") continue;
        if (src.startsWith(sign + close, pos)) {
          tokens.push(mode === "expression" ? tok("}}", "CloseExpression") : tok("%}", "CloseStatement"));
          const end = pos + sign.length + 2;
          return mode === "expression" ? afterBlockEnd(src, end, sign === "-" ? "-" : "+") : afterBlockEnd(src, end, sign);
        }
      }
    }
    WHITESPACE_RE.lastIndex = pos;
    if (WHITESPACE_RE.test(src)) {
      pos = WHITESPACE_RE.lastIndex;
      continue;
    }
    FLOAT_RE.lastIndex = pos;
    let m = src[pos - 1] === "." ? null : FLOAT_RE.exec(src);
    if (m) {
      tokens.push(numberToken(m[0], true));
      pos = FLOAT_RE.lastIndex;
      continue;
    }
    INTEGER_RE.lastIndex = pos;
    m = INTEGER_RE.exec(src);
    if (m) {
      tokens.push(numberToken(m[0], false));
      pos = INTEGER_RE.lastIndex;
      continue;
    }
    NAME_RE.lastIndex = pos;
    m = NAME_RE.exec(src);
    if (m) {
      tokens.push(tok(m[0], "Identifier"));
      if (CHAIN_BOUNDARY.has(m[0])) comparing[comparing.length - 1] = false;
      pos = NAME_RE.lastIndex;
      continue;
    }
    STRING_RE.lastIndex = pos;
    m = STRING_RE.exec(src);
    if (m) {
      tokens.push(tok(decodeStringLiteral(m[1] ?? m[2] ?? "", pos), "StringLiteral"));
      pos = STRING_RE.lastIndex;
      continue;
    }
    const op = OPERATORS.find(([text]) => src.startsWith(text, pos));
    if (!op) throw syntaxError(`unexpected char '${src[pos]}'`, pos);
    const [text, type] = op;
    if (text === "(" || text === "[" || text === "{") {
      balance.push(text === "(" ? ")" : text === "[" ? "]" : "}");
      const prev = tokens[tokens.length - 1]!;
      const isCall =
        (prev.type === "Identifier" && !KEYWORDS.has(prev.value)) ||
        prev.type === "CloseParen" ||
        prev.type === "CloseSquareBracket" ||
        prev.type === "StringLiteral";
      grouping.push(text === "(" && !isCall);
    } else if (text === ")" || text === "]" || text === "}") {
      grouping.pop();
      const expected = balance.pop();
      if (expected === undefined) throw syntaxError(`unexpected '${text}'`, pos);
      if (expected !== text) throw syntaxError(`unexpected '${text}', expected '${expected}'`, pos);
    }
    // `()` as a value and `a[]` (which Jinja2 reads as `a[()]`) are the empty tuple; the parser takes
    // neither, so it gets a placeholder name the compiler turns into ().
    if ((text === ")" || text === "]") && tokens.length >= 2 && tokens[tokens.length - 1]!.type === (text === ")" ? "OpenParen" : "OpenSquareBracket")) {
      const before = tokens[tokens.length - 2]!;
      const operand =
        (before.type === "Identifier" && !KEYWORDS.has(before.value)) ||
        before.type === "CloseParen" ||
        before.type === "CloseSquareBracket" ||
        before.type === "CloseCurlyBracket" ||
        before.type === "StringLiteral";
      if (text === ")" && !operand) {
        tokens.pop();
        comparing.pop();
        tokens.push(tok(EMPTY_TUPLE, "Identifier"));
        pos += 1;
        continue;
      }
      if (text === "]" && operand) tokens.push(tok(EMPTY_TUPLE, "Identifier"));
    }
    if (type === "ComparisonBinaryOperator") {
      const chained = comparing[comparing.length - 1] === true;
      comparing[comparing.length - 1] = true;
      tokens.push(tok(chained ? CHAINED + text : text, type));
    } else tokens.push(tok(text, type));
    if (text === "(" || text === "[" || text === "{") comparing.push(false);
    else if (text === ")" || text === "]" || text === "}") comparing.pop();
    else if (text === "," || text === ":") comparing[comparing.length - 1] = false;
    pos += text.length;
    if (text === "," && grouping[grouping.length - 1] === true && /^\s*\)/.test(src.slice(pos, pos + 64))) {
      tokens.push(tok(TRAILING_COMMA, "Identifier"));
    }
  }
}
