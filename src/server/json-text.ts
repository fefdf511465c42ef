/** JSON text out of the server. Request values may hold PyFloat (a `1.0` kept for templates): printed as numbers. */
import { PyFloat } from "../jinja/py-float.js";

export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof PyFloat ? v.value : v));
}
