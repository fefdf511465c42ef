/**
 * Content-part arrays (spec rule 7). Many templates only read `message.content` as a string and would
 * print a list of parts as a Python list; for those, an array of text parts becomes the texts joined
 * with "\n". Templates that read parts get the array, with the Responses part types `input_text` and
 * `output_text` renamed to the Chat Completions `text` they expect.
 */
import { invalidRequest } from "../errors.js";
import { isObject } from "./is-object.js";
import { copyObject } from "../jinja/key-order.js";

const TEXT_PART_TYPES = new Set(["text", "input_text", "output_text"]);

function isTextPart(part: unknown): part is { type: string; text: string } {
  return isObject(part) && typeof part.type === "string" && TEXT_PART_TYPES.has(part.type) && typeof part.text === "string";
}

/**
 * Returns the content the template sees. Strings, null and other non-arrays pass unchanged; arrays are
 * copied (never the caller's objects) and joined or kept as described above. `field` names the content.
 */
export function normalizeContent(content: unknown, field: string, readsContentParts: boolean): unknown {
  if (!Array.isArray(content)) return content;
  content.forEach((part, j) => {
    if (!isObject(part)) throw invalidRequest(`${field}[${j}]`, "a content part must be an object");
  });
  if (!readsContentParts && content.every(isTextPart)) {
    return content.map((part) => (part as { text: string }).text).join("\n");
  }
  return content.map((part: Record<string, unknown>) => {
    const copy = copyObject(part);
    if (part.type === "input_text" || part.type === "output_text") copy.type = "text";
    return copy;
  });
}

/** The text of a list of `{text}` parts (Responses reasoning summaries), joined with "\n". */
export function joinPartTexts(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .filter((p): p is { text: string } => isObject(p) && typeof p.text === "string")
    .map((p) => p.text)
    .join("\n");
}
