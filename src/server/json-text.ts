/** JSON text out of the server. Request values may hold PyFloat (a `1.0` kept for templates): printed as numbers. */
import { PyFloat } from "../jinja/py-float.js";

const plainNumbers = (_key: string, v: unknown): unknown => (v instanceof PyFloat ? v.value : v);

export function toJson(value: unknown): string {
  // A replacer is called for every key and array item (a prompt's thousand token ids): a walk that
  // looks for a PyFloat first costs far less, and nearly every value has none.
  return holdsPyFloat(value, 0) ? JSON.stringify(value, plainNumbers) : JSON.stringify(value);
}

/** Whether a PyFloat is anywhere in `value` (past a depth JSON.stringify would not reach, assumed so). */
function holdsPyFloat(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (value instanceof PyFloat || depth > 256) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === "object" && holdsPyFloat(v, depth + 1)) return true;
    }
    return false;
  }
  // A toJSON method (a Date, a class) decides its own text: the replacer sees what it returns.
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return true;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== null && typeof v === "object" && holdsPyFloat(v, depth + 1)) return true;
  }
  return false;
}
