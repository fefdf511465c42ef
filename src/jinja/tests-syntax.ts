/**
 * Tests with arguments (`x is divisibleby(3)`, `x is sameas false`, `x is not in [1, 2]`): Jinja2 syntax
 * that @huggingface/jinja's parser does not accept (it takes a bare test name only). We rewrite such a
 * test into a filter call with a reserved name, `x |__test__divisibleby(3)`, which the parser accepts and
 * the compiler turns back into the test. Filters and tests sit at the same level in Jinja2's grammar
 * (parse_filter_expr), so the rewrite keeps the precedence.
 */
import type { Token } from "./lexer.js";

export const TEST_PREFIX = "__test__";
export const NEGATED_TEST_PREFIX = "__test_not__";

/** Tokens after which a bare test name takes no argument (Jinja2's parse_test). */
const NOT_AN_ARGUMENT = new Set(["else", "or", "and"]);
const OPENERS: Readonly<Record<string, string>> = { OpenParen: "CloseParen", OpenSquareBracket: "CloseSquareBracket", OpenCurlyBracket: "CloseCurlyBracket" };
const SIMPLE_ARGUMENT = new Set(["Identifier", "StringLiteral", "NumericLiteral"]);

function tok(value: string, type: string): Token {
  return { value, type } as Token;
}

/** Index just past a balanced group starting at tokens[i] (an opener). */
function groupEnd(tokens: Token[], i: number): number {
  const open = tokens[i]!.type;
  const close = OPENERS[open]!;
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    if (tokens[j]!.type === open) depth++;
    else if (tokens[j]!.type === close && --depth === 0) return j + 1;
  }
  return tokens.length;
}

export function rewriteTestArguments(tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type !== "Identifier" || t.value !== "is") {
      out.push(t);
      continue;
    }
    let j = i + 1;
    const negate = tokens[j]?.type === "Identifier" && tokens[j]!.value === "not";
    if (negate) j++;
    const name = tokens[j];
    const next = tokens[j + 1];
    if (name === undefined || name.type !== "Identifier" || next === undefined) {
      out.push(t);
      continue;
    }
    const prefix = negate ? NEGATED_TEST_PREFIX : TEST_PREFIX;
    if (next.type === "OpenParen") {
      // `is name(args)`: the call's own parentheses carry over.
      out.push(tok("|", "Pipe"), tok(prefix + name.value, "Identifier"));
      i = j;
      continue;
    }
    const isGroup = next.type in OPENERS;
    const isSimple = SIMPLE_ARGUMENT.has(next.type) && !(next.type === "Identifier" && NOT_AN_ARGUMENT.has(next.value));
    if (!isGroup && !isSimple) {
      out.push(t);
      continue;
    }
    // `is name arg`: one argument without parentheses.
    const end = isGroup ? groupEnd(tokens, j + 1) : j + 2;
    out.push(tok("|", "Pipe"), tok(prefix + name.value, "Identifier"), tok("(", "OpenParen"), ...tokens.slice(j + 1, end), tok(")", "CloseParen"));
    i = end - 1;
  }
  return out;
}
