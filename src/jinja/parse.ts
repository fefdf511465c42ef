/**
 * Front end: our Jinja2-exact lexer feeding @huggingface/jinja's parser, syntax errors with the offset
 * of the token the parser stopped at, and the parser's nodes checked into our typed tree (adapt.ts).
 */
import { parse } from "@huggingface/jinja";
import { ChatwireError } from "../errors.js";
import { adaptProgram } from "./adapt.js";
import type { Program } from "./ast.js";
import { tokenizeTemplate, tokenPosition, type Token } from "./lexer.js";
import { rewriteTestArguments } from "./tests-syntax.js";

export function parseTemplate(source: string): Program {
  const tokens = rewriteTestArguments(tokenizeTemplate(source)) as Token[];
  let parsed: unknown;
  try {
    parsed = parse(tokens);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const position = tokenPosition(tokens[furthestToken(tokens)]);
    throw new ChatwireError(
      "invalid_template",
      position === undefined ? message : `${message} (at offset ${position})`,
      position === undefined ? {} : { position },
    );
  }
  return adaptProgram(parsed);
}

/**
 * The parser keeps its cursor private; on the error path only, parse again through a proxy that records
 * the furthest token read. That is the token the parser choked on (or the one right after it).
 */
function furthestToken(tokens: Token[]): number {
  let furthest = -1;
  const watched = new Proxy(tokens, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) furthest = Math.max(furthest, Math.min(Number(key), target.length - 1));
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  try {
    parse(watched);
  } catch {
    // expected: the same error again
  }
  return furthest;
}
