/**
 * chatwire's public API for Node: the core (src/core.ts) with a loadTemplate that also reads
 * templates from files, model folders and `.gguf` files. package.json maps `chatwire` to this module
 * under the "node" condition and to the core everywhere else. Nothing but re-exports lives here.
 */
export * from "./core.js";
// A local export wins over the same name from `export *`.
export { loadTemplate } from "./template/index.js";
// Token ids (src/tokens): a tokenizer.json, a model folder or a .gguf vocabulary, read from disk; the
// optional @huggingface/tokenizers is loaded on first use.
export { loadTokenizer, renderTokens, renderGeneration, ChatTokenizer } from "./tokens/index.js";
export { candidateSpecialTexts, probeSpecialTexts, renderSegments, tokenizeSegments, llamaServerTokenizer, specialTexts } from "./tokens/index.js";
export type { ProtectMode, RenderTokensOptions, TokenizedPrompt, Span, TextTokenizer, PromptSegment, SpecialTexts } from "./tokens/index.js";
