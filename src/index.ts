/**
 * chatwire's public API. Nothing but re-exports lives here.
 */
export { loadTemplate, templateFromConfig, ChatTemplate } from "./template/index.js";
export type { TemplateSource, RenderOptions, LoadOptions, TemplateCaps } from "./template/index.js";
export { normalizeRequest, readJson } from "./request/index.js";
export type { Conversation } from "./request/index.js";
export { compileTemplate, PyFloat } from "./jinja/index.js";
export type { CompiledTemplate, RenderLimits } from "./jinja/index.js";
export { detectFormat, detectReasoning, getFormat, listFormats } from "./formats/index.js";
export type { FormatDescription, FormatId } from "./formats/index.js";
export { parseCompletion, createStreamParser, foldDeltas } from "./parse/index.js";
export type { ParseOptions } from "./parse/index.js";
export { buildGbnf, buildStructuralTag, buildToolJsonSchema, gbnfForTemplate, grammarFormats, grammarUnavailable } from "./grammar/index.js";
export type { StructuralTag } from "./grammar/index.js";
export type { GrammarOptions } from "./grammar/index.js";
export { ChatwireError } from "./errors.js";
export type { ChatwireErrorCode } from "./errors.js";
export type * from "./types.js";
// The format language: families are data (docs/formats.md); `defineFormat` types a description.
export { defineFormat } from "./parse/language.js";
export type { Payload, RegionSpec, ChannelSpec, ChannelRule, Detection, ReasoningMarkers } from "./formats/types.js";
