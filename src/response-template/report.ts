/**
 * What `caps` and `detect` say about a config's response declarations: whether it ships a
 * `response_template` and whether it compiles (with the refusals when not), and whether it ships the
 * older `response_schema` (kept, not compiled).
 */
import { compileResponseTemplate, type Refusal } from "./compile.js";
import type { ResponseSchema, ResponseTemplate } from "./types.js";

export interface ResponseTemplateReport {
  responseTemplate?: { compiles: true } | { compiles: false; refusals: readonly Refusal[] };
  responseSchema?: { compiles: false; reason: string };
}

export function reportResponseSpecs(template: { responseTemplate: ResponseTemplate | undefined; responseSchema: ResponseSchema | undefined }): ResponseTemplateReport {
  const out: ResponseTemplateReport = {};
  if (template.responseTemplate !== undefined) {
    const compiled = compileResponseTemplate(template.responseTemplate);
    out.responseTemplate = compiled.ok ? { compiles: true } : { compiles: false, refusals: compiled.refusals };
  }
  if (template.responseSchema !== undefined) {
    out.responseSchema = { compiles: false, reason: "response_schema (x-regex) is kept but not compiled; transformers 5.x drops it too" };
  }
  return out;
}

/** One line for `detect`'s plain output, or undefined when the config declares neither. */
export function responseSpecsLine(report: ResponseTemplateReport): string | undefined {
  const parts: string[] = [];
  const t = report.responseTemplate;
  if (t !== undefined) {
    parts.push(t.compiles ? "compiles" : `refused (${t.refusals.map((r) => `${r.field}: ${r.construct}`).join("; ")})`);
  }
  if (report.responseSchema !== undefined) parts.push("response_schema kept, not compiled");
  return parts.length > 0 ? `response template: ${parts.join("; ")}` : undefined;
}
