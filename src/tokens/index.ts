/**
 * Token ids for rendered prompts, with provenance: control tokens come from template text only, unless
 * the caller opts in (`specialTokens: "all"`). See escape.ts for how data is told apart from template
 * text without the renderer tracking it.
 */
export { tokenize } from "./tokenize.js";
export type { TokenizeOptions } from "./tokenize.js";
export { renderTokens, protectRequest, restorePrompt } from "./render-tokens.js";
export type { Renderer } from "./render-tokens.js";
export type { TokenizerJson, AddedTokenJson } from "./tokenizer-json.js";
