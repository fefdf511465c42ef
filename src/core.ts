/**
 * chatwire's core API: everything but reading files. It references no Node built-in, so it bundles
 * for browsers, workers and edge runtimes as is (package.json "exports" maps `chatwire` to it there,
 * and `chatwire/core` everywhere). src/index.ts is the same API for Node. Nothing but re-exports here.
 */
export { loadTemplate, templateFromConfig, ChatTemplate } from "./template/core.js";
export type { TemplateSource, RenderOptions, LoadOptions, TemplateCaps } from "./template/core.js";
export { normalizeRequest, readJson } from "./request/index.js";
export type { Conversation } from "./request/index.js";
export { compileTemplate, PyFloat } from "./jinja/index.js";
export type { CompiledTemplate, RenderLimits } from "./jinja/index.js";
export { detectFormat, detectReasoning, getFormat, listFormats } from "./formats/index.js";
export type { FormatDescription, FormatId } from "./formats/index.js";
export { parseCompletion, createStreamParser, foldDeltas } from "./parse/index.js";
export type { ParseOptions } from "./parse/index.js";
export { buildGbnf, buildToolJsonSchema, gbnfForTemplate, grammarFormats } from "./grammar/index.js";
export type { GrammarOptions } from "./grammar/index.js";
export { ChatwireError } from "./errors.js";
export type { ChatwireErrorCode } from "./errors.js";
export type * from "./types.js";
