/**
 * Argument validation for parsed tool calls. The schemas were checked when the request was
 * normalised (src/schema: compiled once per distinct schema, bounded caches, linear-time patterns,
 * an interpreting validator where code generation is forbidden), so a schema here always compiles;
 * should one not (a caller passing schemas directly), the call is rejected rather than let through.
 */
import { ChatwireError } from "../errors.js";
import { toolValidator, type Validation } from "../schema/index.js";
import type { JsonSchema } from "../types.js";

export type { Validation } from "../schema/index.js";

/** Validates parsed arguments against a tool's `parameters` schema. */
export function validateArguments(schema: JsonSchema | undefined, value: unknown): Validation {
  if (schema === undefined) return { ok: true };
  try {
    return toolValidator(schema, "parameters")(value);
  } catch (err) {
    if (!(err instanceof ChatwireError)) throw err;
    return { ok: false, message: `the tool's schema cannot validate anything: ${err.message}`, details: [] };
  }
}

/**
 * True when the arguments hold a number that is not finite: `1e999` is JSON (and Python) syntax, but it
 * reads as Infinity, which JSON cannot carry (JSON.stringify writes it as null, Python's json.dumps as
 * `Infinity`), so the call's arguments would change on their way to the tool. Iterative: depth is the
 * model's.
 */
export function holdsNonFiniteNumber(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return true;
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v !== null && typeof v === "object") {
      for (const item of Object.values(v)) stack.push(item);
    }
  }
  return false;
}
