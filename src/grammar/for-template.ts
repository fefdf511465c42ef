/**
 * Grammars for a loaded template: the format its completions of this request are written in (json-block
 * when the tool polyfill applies), the template's own source (mistral call form) and the end of the
 * rendered prompt (a generation prompt that opened reasoning).
 */
import type { ChatTemplate, RenderOptions } from "../template/index.js";
import { buildGbnf, type GrammarOptions } from "./gbnf-grammar.js";

/** How many characters of the prompt's end tell whether the generation prompt opened reasoning. */
const PROMPT_SUFFIX_LENGTH = 200;

export function gbnfForTemplate(template: ChatTemplate, request: unknown, render: RenderOptions = {}): string {
  const options: GrammarOptions = { templateSource: template.source };
  try {
    options.promptSuffix = template.render(request, { ...render, addGenerationPrompt: true, continueFinalMessage: false }).slice(-PROMPT_SUFFIX_LENGTH);
  } catch {
    // A request the template cannot render (no messages yet) still gets a grammar: output starts outside reasoning.
  }
  return buildGbnf(template.formatFor(request, render), request, options);
}
