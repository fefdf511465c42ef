/**
 * A response template compiled into the format language (src/parse/language.ts), so that a model's
 * own declaration parses, streams, validates and repairs like any family. The mapping:
 * - `thinking` (text, literal or literal-pattern anchors) -> a reasoning block;
 * - `content` (text) -> content; its anchors -> `ignore` markers (end-of-turn tokens, answer wrappers);
 * - `tool_calls` -> one call region (tool-calls.ts).
 * What has no equivalent is refused with the path of the field and the construct: a regex construct the
 * language cannot say, an output key other than these three, a typed scalar for text, a `defaults`
 * entry other than the role. Nothing is guessed: a template either compiles whole or not at all.
 */
import type { FormatDescription, RegionSpec } from "../parse/language.js";
import { plainMarkers, refused, type Read, type Refusal } from "./markers.js";
import { boundariesFit, withoutBoundaries, type Boundaries } from "./reasoning-boundaries.js";
import { compileToolCalls } from "./tool-calls.js";
import type { ResponseTemplate, ResponseTemplateField } from "./types.js";
import { implicitField } from "./validate.js";

export type { Refusal } from "./markers.js";

export type CompiledResponseTemplate =
  | {
      ok: true;
      format: FormatDescription;
      /** Where a transformers parser would start reading the prompt (the start anchor, literal form). */
      startAnchors?: readonly string[];
    }
  | { ok: false; refusals: readonly Refusal[] };

const FIELDS = "response_template.fields";

function textOnly(path: string, f: ResponseTemplateField, what: string): Refusal | undefined {
  if ((f.content ?? "text") !== "text") return { field: `${path}.content`, construct: `content ${f.content}`, reason: `${what} is text in an OpenAI message` };
  if (f.transform !== undefined) return { field: `${path}.transform`, construct: "a transform", reason: `${what} is a plain string` };
  // `strip` only says whether transformers trims the region: chatwire keeps text as written either way
  // (the agreement test compares trimmed text), which is `strip: false`.
  if (f.content_args !== undefined && Object.keys(f.content_args).some((k) => k !== "strip" || typeof f.content_args?.[k] !== "boolean")) {
    return { field: `${path}.content_args`, construct: JSON.stringify(f.content_args), reason: "a text field's only option is strip" };
  }
  return undefined;
}

function thinking(path: string, f: ResponseTemplateField): Read<{ start: string[]; end: string[] }> {
  const bad = textOnly(path, f, "reasoning");
  if (bad) return { ok: false, refusal: bad };
  const start = plainMarkers(`${path}.open${f.open_pattern !== undefined ? "_pattern" : ""}`, f.open, f.open_pattern);
  const end = plainMarkers(`${path}.close${f.close_pattern !== undefined ? "_pattern" : ""}`, f.close, f.close_pattern);
  if (start === undefined) return refused(path, "implicit thinking", "an output that starts in reasoning is told by the prompt's end (promptSuffix), not by the template");
  if (end === undefined) return refused(path, "thinking without a close", "a reasoning block needs an end marker");
  if (!start.ok) return start;
  if (!end.ok) return end;
  return { ok: true, value: { start: start.value, end: end.value } };
}

/**
 * The content field's markers, all `ignore`d: the implicit field's close anchors (end-of-turn), or an
 * explicit field's open and close anchors (an answer wrapper, Cohere's `<|START_RESPONSE|>`). chatwire's
 * content is all text outside other regions either way; transformers drops text outside every region
 * when no field is implicit (a difference, docs/response-templates.md).
 */
function content(path: string, f: ResponseTemplateField, implicit: boolean): Read<string[]> {
  const bad = textOnly(path, f, "content");
  if (bad) return { ok: false, refusal: bad };
  const end = plainMarkers(`${path}.close${f.close_pattern !== undefined ? "_pattern" : ""}`, f.close, f.close_pattern);
  if (end !== undefined && !end.ok) return end;
  if (implicit) return { ok: true, value: end?.value ?? [] };
  const start = plainMarkers(`${path}.open${f.open_pattern !== undefined ? "_pattern" : ""}`, f.open, f.open_pattern);
  if (start !== undefined && !start.ok) return start;
  return { ok: true, value: [...(start?.value ?? []), ...(end?.value ?? [])] };
}

/** Compiles a validated response template, or lists every reason it cannot be compiled. */
export function compileResponseTemplate(template: ResponseTemplate, id = "response-template"): CompiledResponseTemplate {
  const refusals: Refusal[] = [];
  const keep = <T>(r: Read<T>): T | undefined => (r.ok ? r.value : (refusals.push(r.refusal), undefined));
  for (const [key, value] of Object.entries(template.defaults ?? {})) {
    if (!(key === "role" && value === "assistant")) refusals.push({ field: `response_template.defaults.${key}`, construct: JSON.stringify(value), reason: "an assistant message has no other fixed field" });
  }
  const implicit = implicitField(template);
  let reasoning: { start: string[]; end: string[] } | undefined;
  let ignore: string[] = [];
  let region: RegionSpec | undefined;
  let boundaries: Boundaries | undefined;
  for (const [name, f] of Object.entries(template.fields)) {
    const path = `${FIELDS}.${name}`;
    if (name === "thinking") {
      boundaries = withoutBoundaries(f);
      reasoning = keep(thinking(path, boundaries.field));
    }
    else if (name === "content") ignore = keep(content(path, f, implicit === name)) ?? [];
    else if (name === "tool_calls") region = keep(compileToolCalls(path, f));
    else refusals.push({ field: path, construct: `the output key ${name}`, reason: "an assistant message has thinking (reasoning_content), content and tool_calls" });
  }
  if (refusals.length > 0) return { ok: false, refusals };
  const anchors = template.start_anchor === undefined ? undefined : typeof template.start_anchor === "string" ? [template.start_anchor] : [...template.start_anchor];
  const format: FormatDescription = {
    id,
    description: "compiled from the model's response_template",
    ...(reasoning ? { reasoning: [reasoning] } : {}),
    regions: region ? [region] : [],
    ...(ignore.length > 0 ? { ignore } : {}),
  };
  // A call inside reasoning is a call in chatwire: the thinking field may say so, about the template's own calls.
  if (boundaries !== undefined && (boundaries.starts.length > 0 || boundaries.resumes.length > 0) && !boundariesFit(boundaries, format)) {
    return { ok: false, refusals: [{ field: `${FIELDS}.thinking`, construct: "a lookaround", reason: "a lookaround in thinking is read only as a call boundary: a lookahead at the start of one of the template's calls, a lookbehind at a call's end while the block is open" }] };
  }
  return { ok: true, format, ...(anchors ? { startAnchors: anchors } : {}) };
}
