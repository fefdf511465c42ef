/**
 * chatwire's core API: everything but reading files. It references no Node built-in, so it bundles
 * for browsers, workers and edge runtimes as is (package.json "exports" maps `chatwire` to it there,
 * and `chatwire/core` everywhere). src/index.ts is the same API for Node. Nothing but re-exports here.
 */
export { loadTemplate, templateFromConfig, ChatTemplate } from "./template/core.js";
export type { TemplateSource, RenderOptions, LoadOptions, TemplateCaps } from "./template/core.js";
export type { TemplateConfig, NamedTemplate, SpecialTokenValue, TemplateParseOptions, PolyfillMode, BuiltinInfo } from "./template/core.js";
export { listBuiltins } from "./template/core.js";
export type { ToolChoiceRule, TemplateInfo } from "./request/index.js";
export type * from "./formats/types.js";
export { SCHEMA_LIMITS } from "./schema/index.js";
export type { SchemaErrorDetail } from "./schema/index.js";
export { normalizeRequest, readJson, readSharedJson } from "./request/index.js";
export type { Conversation } from "./request/index.js";
export { compileTemplate, PyFloat } from "./jinja/index.js";
export type { CompiledTemplate, RenderLimits } from "./jinja/index.js";
export { detectFormat, detectReasoning, getFormat, listFormats } from "./formats/index.js";
export type { FormatDescription, FormatId } from "./formats/index.js";
export { parseCompletion, createStreamParser, foldDeltas } from "./parse/index.js";
export type { ParseOptions, ReasoningCalls } from "./parse/index.js";
export { buildGbnf, buildStructuralTag, buildToolJsonSchema, gbnfForTemplate, grammarFormats, grammarUnavailable } from "./grammar/index.js";
export type { GrammarOptions, StructuralTag } from "./grammar/index.js";
export { checkTemplate, formatReport } from "./check/index.js";
export type { CheckOptions, CheckReport, CheckTokenizer, Finding, ReferenceRenderer } from "./check/index.js";
export { compileResponseTemplate, validateResponseTemplate, chooseFormat, exportResponseTemplate } from "./response-template/index.js";
export type { CompiledResponseTemplate, Refusal, ChosenFormat, ResponseTemplate, ResponseTemplateField, ResponseSchema, ExportedResponseTemplate, ExportNote, ExportOptions } from "./response-template/index.js";
export { ChatwireError } from "./errors.js";
export type { ChatwireErrorCode } from "./errors.js";
export type * from "./types.js";
// The format language: families are data (docs/formats.md); `defineFormat` types a description.
export { defineFormat } from "./parse/language.js";
