/**
 * Request fields that are template variables rather than messages (spec rule 10): top-level `documents`
 * (RAG templates: Command-R, Granite), `reasoning_effort` (Chat Completions) and the Responses API's
 * `reasoning: {effort}` (gpt-oss prints `Reasoning: <effort>`), then vLLM-style `chat_template_kwargs`,
 * which win over the fields. Explicit render options win over all of them (the caller's `variables`).
 */
import { invalidRequest } from "../errors.js";
import { isObject } from "./is-object.js";

export function requestVariables(body: unknown): Record<string, unknown> {
  if (!isObject(body)) return {};
  const out: Record<string, unknown> = {};
  if (body.documents !== undefined && body.documents !== null) {
    if (!Array.isArray(body.documents)) throw invalidRequest("documents", "must be an array of documents");
    body.documents.forEach((doc, i) => {
      // transformers: "Documents should be a list of dicts with 'title' and 'text' keys!"
      if (!isObject(doc)) throw invalidRequest(`documents[${i}]`, "must be an object (such as {title, text})");
    });
    out.documents = body.documents;
  }
  const effort = reasoningEffort(body);
  if (effort !== undefined) out.reasoning_effort = effort;
  if (body.chat_template_kwargs !== undefined && body.chat_template_kwargs !== null) {
    if (!isObject(body.chat_template_kwargs)) throw invalidRequest("chat_template_kwargs", "must be an object");
    // Spread, not Object.assign: a `__proto__` key stays an own key instead of setting the prototype.
    return { ...out, ...body.chat_template_kwargs };
  }
  return out;
}

/** `reasoning_effort`, else `reasoning.effort`; undefined when neither is set. */
function reasoningEffort(body: Record<string, unknown>): string | undefined {
  if (body.reasoning_effort !== undefined && body.reasoning_effort !== null) {
    if (typeof body.reasoning_effort !== "string") throw invalidRequest("reasoning_effort", "must be a string");
    return body.reasoning_effort;
  }
  if (body.reasoning === undefined || body.reasoning === null) return undefined;
  if (!isObject(body.reasoning)) throw invalidRequest("reasoning", "must be an object");
  const effort = body.reasoning.effort;
  if (effort === undefined || effort === null) return undefined;
  if (typeof effort !== "string") throw invalidRequest("reasoning.effort", "must be a string");
  return effort;
}
