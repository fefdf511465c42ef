/**
 * Constraint grammars from the same format descriptions the parser uses: GBNF (llama.cpp) for a
 * family's whole output, and a JSON Schema for the json-block / response_format style.
 */
export { buildGbnf, buildLazyGbnf, emitterLimit, grammarFormats, grammarUnavailable } from "./gbnf-grammar.js";
export type { LazyGrammar } from "./gbnf-grammar.js";
export type { LazyTrigger } from "./lazy-triggers.js";
export type { GrammarOptions } from "./gbnf-grammar.js";
export { buildToolJsonSchema } from "./json-schema.js";
export { buildStructuralTag } from "./structural-tag.js";
export type { StructuralTag } from "./structural-tag.js";
export { gbnfForTemplate } from "./for-template.js";
