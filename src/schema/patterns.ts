/**
 * JSON Schema `pattern` (and `patternProperties` keys) applied to model output, which is untrusted: a
 * backtracking engine can take exponential time (`^(a+)+$` on 30 characters of output blocked Node for
 * 12 s). Patterns run on RE2 (re2js), which matches in time linear in the input. RE2 cannot express
 * lookaround or backreferences; such a pattern runs on the native engine only when it has no repeated
 * group that itself repeats or alternates (the shape behind catastrophic backtracking), and only on
 * strings up to NATIVE_INPUT_LIMIT characters. Anything else is refused when the schema is compiled.
 */
import { RE2JS } from "re2js";
import { BoundedCache } from "../bounded-cache.js";
import { SchemaProblem } from "./problem.js";

export interface PatternTester {
  test(input: string): boolean;
}

/** Longest string a native-engine (fallback) pattern is tested on; longer strings do not match. */
export const NATIVE_INPUT_LIMIT = 4096;

/**
 * Compiled patterns (and refusals) by their text: the request-time check compiles each pattern and
 * the validator built later compiles it again, and tool lists repeat the same few patterns. Bounded by
 * bytes: measured as heap after GC, 1000 distinct 32-character patterns held 13 KB each (RE2's program
 * and the native RegExp), about 400 bytes a character, so an entry weighs 2 KB plus 512 a character.
 */
const PATTERN_ENTRY_BYTES = 2048;
const PATTERN_BYTES_PER_CHAR = 512;
const compiledPatterns = new BoundedCache<string, PatternTester | SchemaProblem>(1024, 16 << 20, (pattern) => PATTERN_ENTRY_BYTES + PATTERN_BYTES_PER_CHAR * pattern.length);

/** Compiles an ECMA-262 pattern (JSON Schema's dialect) for linear-time matching, or throws SchemaProblem. */
export function compilePattern(pattern: string): PatternTester {
  const result = compiledPatterns.get(pattern, (p) => {
    try {
      return compileUncached(p);
    } catch (err) {
      if (err instanceof SchemaProblem) return err;
      throw err;
    }
  });
  if (result instanceof SchemaProblem) throw result;
  return result;
}

function compileUncached(pattern: string): PatternTester {
  let native: RegExp;
  try {
    // The pattern must be valid where JSON Schema defines it (ECMA-262, unicode mode). Constructing
    // a RegExp only parses it; nothing is matched.
    native = new RegExp(pattern, "u");
  } catch (err) {
    throw new SchemaProblem(`pattern ${JSON.stringify(pattern)} is not a valid regular expression (${(err as Error).message})`);
  }
  let re2: RE2JS | undefined;
  try {
    re2 = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch {
    re2 = undefined;
  }
  if (re2 !== undefined) {
    const compiled = re2;
    return { test: (input) => compiled.test(input) };
  }
  const unsafe = backtrackingHazard(pattern);
  if (unsafe !== undefined) {
    throw new SchemaProblem(
      `pattern ${JSON.stringify(pattern)} needs a backtracking engine (lookaround or backreference) and ${unsafe}, ` +
        "so matching model output against it could take exponential time",
    );
  }
  return { test: (input) => input.length <= NATIVE_INPUT_LIMIT && native.test(input) };
}

/**
 * Why backtracking on this pattern could explode, or undefined when it cannot in the usual way: a
 * quantified group containing a quantifier or an alternation (`(a+)+`, `(a|a)*`), or a backreference.
 * Conservative: it refuses some harmless patterns, never accepts those shapes.
 */
export function backtrackingHazard(pattern: string): string | undefined {
  if (/\\[1-9]|\\k</.test(pattern)) return "has a backreference";
  // One frame per open group: does its body contain a quantifier or `|`?
  const stack: { risky: boolean }[] = [];
  let lastGroupRisky = false; // the group that just closed, in case a quantifier follows it
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      i++;
      lastGroupRisky = false;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      lastGroupRisky = false;
      continue;
    }
    if (ch === "(") {
      stack.push({ risky: false });
      lastGroupRisky = false;
      continue;
    }
    if (ch === ")") {
      const frame = stack.pop();
      lastGroupRisky = frame?.risky ?? false;
      // A group with something risky inside makes its parent's body risky too.
      const parent = stack[stack.length - 1];
      if (parent !== undefined && lastGroupRisky) parent.risky = true;
      continue;
    }
    const quantifier = ch === "*" || ch === "+" || (ch === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    const optional = ch === "?" && pattern[i - 1] !== "(";
    if (quantifier || optional) {
      if (lastGroupRisky && ch !== "?") return "repeats a group that itself repeats or alternates";
      const frame = stack[stack.length - 1];
      if (frame !== undefined && ch !== "?") frame.risky = true;
      lastGroupRisky = false;
      continue;
    }
    if (ch === "|") {
      const frame = stack[stack.length - 1];
      if (frame !== undefined) frame.risky = true;
    }
    lastGroupRisky = false;
  }
  return undefined;
}
