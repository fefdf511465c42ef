/**
 * `response_format` (Chat Completions) and `text.format` (Responses) as a generation Constraint: a
 * JSON Schema the backend enforces with its own structured-output field, or "any JSON object". The
 * schema is passed on as the client wrote it (the backend compiles it); only its shape is checked here.
 */
import { isObject } from "../request/is-object.js";
import { badRequest } from "./api-error.js";
import type { Constraint } from "./backends/types.js";

export function responseFormatOf(body: Record<string, unknown>, endpoint: "chat" | "responses"): Constraint | undefined {
  const field = endpoint === "chat" ? "response_format" : "text.format";
  const format = endpoint === "chat" ? body.response_format : isObject(body.text) ? body.text.format : undefined;
  if (format === undefined || format === null) return undefined;
  if (!isObject(format)) throw badRequest(field, "must be an object with a `type`");
  switch (format.type) {
    case "text":
      return undefined;
    case "json_object":
      return { kind: "json_object" };
    case "json_schema": {
      // Chat Completions nests it (`json_schema: {name, schema, strict}`); Responses puts it flat.
      const holder = endpoint === "chat" ? format.json_schema : format;
      const where = endpoint === "chat" ? `${field}.json_schema` : field;
      if (!isObject(holder)) throw badRequest(where, "is required for type json_schema");
      const schema = holder.schema;
      if (schema === undefined) return { kind: "json_object" };
      if (!isObject(schema)) throw badRequest(`${where}.schema`, "must be a JSON Schema object");
      return { kind: "json_schema", schema };
    }
    default:
      throw badRequest(`${field}.type`, `must be "text", "json_object" or "json_schema", got ${JSON.stringify(format.type)}`);
  }
}
