/**
 * Grammars for a loaded template: the format its completions of this request are written in (json-block
 * with the template's reasoning markers when the tool polyfill applies, the compiled response template when the config declares one the family
 * does not speak), the template's own source (mistral call form) and the end of the
 * rendered prompt (a generation prompt that opened reasoning).
 */
import type { ChatTemplate, RenderOptions } from "../template/index.js";
import { buildGbnf, type GrammarOptions } from "./gbnf-grammar.js";

export function gbnfForTemplate(template: ChatTemplate, request: unknown, render: RenderOptions = {}): string {
  const options: GrammarOptions = { templateSource: template.source };
  // A request the template cannot render still gets a grammar: output starts outside reasoning.
  const promptSuffix = template.promptSuffix(request, render);
  if (promptSuffix !== undefined) options.promptSuffix = promptSuffix;
  // The format completions are parsed with: a declared response template the family does not speak included.
  return buildGbnf(template.parseFormatFor(request, render), request, options);
}
