/**
 * Front end: our Jinja2-exact lexer feeding @huggingface/jinja's parser.
 */
import { parse } from "@huggingface/jinja";
import type { ProgramNode } from "./ast.js";
import { tokenizeTemplate } from "./lexer.js";
import { rewriteTestArguments } from "./tests-syntax.js";

export function parseTemplate(source: string): ProgramNode {
  return parse(rewriteTestArguments(tokenizeTemplate(source)) as ReturnType<typeof tokenizeTemplate>) as unknown as ProgramNode;
}
