/**
 * Token ids for rendered prompts, with provenance: special tokens come from template text only, unless
 * the caller opts in (`protect: "none"`). See escape.ts for how data is told apart from template text
 * without the renderer tracking it, tokenizer.ts for the encoder, segments.ts for tokenizing through a
 * backend, render-tokens.ts for assistant masks.
 */
export { loadTokenizer } from "./load-tokenizer.js";
export { ChatTokenizer, createTokenizer } from "./tokenizer.js";
export type { ProtectMode, TokenizeOptions, Encoded } from "./tokenizer.js";
export { renderTokens, renderGeneration, tokenMask } from "./render-tokens.js";
export type { Renderer, RenderTokensOptions, TokenizedPrompt, SpanRenderOptions } from "./render-tokens.js";
export { tokenizerJsonFromGguf } from "./gguf-vocab.js";
export { tokenizerJsonFromGgufFile } from "./gguf-file.js";
export type { GgufVocabMetadata } from "./gguf-vocab.js";
export {
  specialTexts,
  renderSegments,
  promptSegments,
  tokenizeSegments,
  candidateSpecialTexts,
  probeSpecialTexts,
  llamaServerTokenizer,
} from "./segments.js";
export type { PromptSegment, TextTokenizer, SpecialTexts } from "./segments.js";
export type { Span } from "./token-offsets.js";
export type { TokenizerJson, AddedTokenJson } from "./tokenizer-json.js";
export { parseTokenizerJson } from "./tokenizer-json.js";
