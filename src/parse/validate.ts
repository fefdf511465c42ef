/**
 * Argument validation with ajv. Validators are compiled once per schema (keyed by the schema's JSON
 * text, so equal schemas from different requests share one) and cached for the life of the process.
 * `strict: false` because real tool schemas carry keywords ajv does not know (`title` is fine, but
 * also vendor extensions); `allErrors` so the issue lists every problem at once.
 */
import { Ajv } from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { JsonSchema } from "../types.js";

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const cache = new Map<string, ValidateFunction | Error>();

export type Validation = { ok: true } | { ok: false; message: string; details: ErrorObject[] };

function compiled(schema: JsonSchema): ValidateFunction | Error {
  const key = JSON.stringify(schema);
  let fn = cache.get(key);
  if (fn === undefined) {
    try {
      fn = ajv.compile(schema);
    } catch (err) {
      // A schema ajv cannot compile validates nothing; the caller still checks object-ness.
      fn = err instanceof Error ? err : new Error(String(err));
    }
    cache.set(key, fn);
  }
  return fn;
}

/** Validates parsed arguments against a tool's `parameters` schema. */
export function validateArguments(schema: JsonSchema | undefined, value: unknown): Validation {
  if (schema === undefined) return { ok: true };
  const fn = compiled(schema);
  if (fn instanceof Error) return { ok: true };
  if (fn(value)) return { ok: true };
  const details = [...(fn.errors ?? [])];
  return { ok: false, message: ajv.errorsText(details, { dataVar: "arguments" }), details };
}
