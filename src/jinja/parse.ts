/**
 * Front end: our Jinja2-exact lexer feeding @huggingface/jinja's parser.
 */
import { parse } from "@huggingface/jinja";
import type { ProgramNode } from "./ast.js";
import { tokenizeTemplate } from "./lexer.js";

export function parseTemplate(source: string): ProgramNode {
  return parse(tokenizeTemplate(source)) as unknown as ProgramNode;
}
