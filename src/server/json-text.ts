/** JSON text out of the server. Request values may hold PyFloat (a `1.0` kept for templates): printed as numbers. */
import { BoundedCache } from "../bounded-cache.js";
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

/**
 * Long strings printed before, by their text: a request's grammar (several KB, tens of KB for many
 * tools) is the same string object for every request with those tools (src/server/request-grammar.ts
 * keeps it), and escaping it again was the largest part of printing the backend body. Bounded like the
 * grammars: 256 strings and 4 M characters of string and its JSON text.
 */
const LONG_STRING = 1024;
const printedStrings = new BoundedCache<string, string>(256, 4 << 20, (text, json) => text.length + json.length);

/**
 * toJson of a plain object (a backend request body), with each long string field's JSON kept: the same
 * text as toJson(body), key for key.
 */
export function toJsonBody(body: Record<string, unknown>): string {
  let out = "";
  for (const key of Object.keys(body)) {
    const value = body[key];
    const json = typeof value === "string" && value.length >= LONG_STRING ? printedStrings.get(value, (v) => JSON.stringify(v)) : toJson(value);
    if (json === undefined) continue; // undefined, a function: JSON.stringify leaves the key out
    out += `${out === "" ? "{" : ","}${JSON.stringify(key)}:${json}`;
  }
  return out === "" ? "{}" : `${out}}`;
}
