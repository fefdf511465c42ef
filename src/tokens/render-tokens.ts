/**
 * Render a request straight to token ids with provenance: escape control-token text in the request's
 * data, render through the template, tokenize. Works with any object that has chatwire's `render`, so
 * the tokens module does not depend on the template module.
 */
import { escapeSpecialText, escapeTable, restoreSpecialText } from "./escape.js";
import { tokenize, type TokenizeOptions } from "./tokenize.js";
import { loadTokenizer, type TokenizerJson } from "./tokenizer-json.js";

export interface Renderer<O> {
  render(request: unknown, options?: O): string;
}

/** Escapes control-token text in every string of `request` (a deep copy; the caller's object is untouched). */
export function protectRequest<T>(request: T, tokenizerJson: TokenizerJson): T {
  return escapeSpecialText(request, escapeTable(loadTokenizer(tokenizerJson).controlTexts));
}

/** The text of a prompt rendered from a protected request, as the plain render would have printed it. */
export function restorePrompt(prompt: string, tokenizerJson: TokenizerJson): string {
  return restoreSpecialText(prompt, escapeTable(loadTokenizer(tokenizerJson).controlTexts));
}

export function renderTokens<O>(
  template: Renderer<O>,
  request: unknown,
  tokenizerJson: TokenizerJson,
  options?: O,
  tokenizeOptions: TokenizeOptions = {},
): number[] {
  const prompt = template.render(protectRequest(request, tokenizerJson), options);
  return tokenize(prompt, tokenizerJson, tokenizeOptions);
}
