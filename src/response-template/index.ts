/**
 * Response templates (transformers 5.x `response_template`): validate as transformers' loader does,
 * compile into the format language, and choose between the declaration and the detected family
 * (docs/response-templates.md).
 */
export { validateResponseTemplate } from "./validate.js";
export { compileResponseTemplate } from "./compile.js";
export type { CompiledResponseTemplate, Refusal } from "./compile.js";
export { chooseFormat } from "./choose.js";
export type { ChosenFormat } from "./choose.js";
export type { ResponseTemplate, ResponseTemplateField, ResponseSchema, ContentParser, LiteralAnchor, JsonValue } from "./types.js";
export { exportResponseTemplate } from "./export.js";
export type { ExportedResponseTemplate, ExportNote, ExportOptions } from "./export.js";
