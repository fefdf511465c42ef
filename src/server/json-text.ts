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
 * Long strings printed before, by their text, as the UTF-8 bytes of their JSON: a request's grammar
 * (several KB, tens of KB for many tools) is the same string object for every request with those tools
 * (src/server/request-grammar.ts keeps it), and escaping and encoding it again was the largest part of
 * printing the backend body. Bounded like the grammars: 256 strings and 4 M of characters of string
 * and bytes of its JSON.
 */
const LONG_STRING = 1024;
const printedStrings = new BoundedCache<string, Buffer>(256, 4 << 20, (text, json) => text.length + json.length);

/** Bytes in memory of their own: a small Buffer.from is a slice of an 8 KB pool, which a kept one would hold. */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.buffer.byteLength === bytes.length) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(own);
  return own;
}

/**
 * The UTF-8 bytes of toJson(body) for a plain object (a backend request body), key for key, each long
 * string field's bytes kept: the body is sent as bytes (backends/http-post.ts), and joining the kept
 * bytes costs no JS string of the whole body (made flat, then encoded) per request.
 */
export function toJsonBytes(body: Record<string, unknown>): Buffer {
  const parts: Buffer[] = [];
  let text = "{";
  let first = true;
  for (const key of Object.keys(body)) {
    const value = body[key];
    const long = typeof value === "string" && value.length >= LONG_STRING;
    const json = long ? undefined : toJson(value);
    if (!long && json === undefined) continue; // undefined, a function: JSON.stringify leaves the key out
    text += `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (json !== undefined) {
      text += json;
      continue;
    }
    parts.push(Buffer.from(text, "utf8"), printedStrings.get(value as string, (v) => ownBytes(JSON.stringify(v))));
    text = "";
  }
  const tail = Buffer.from(`${text}}`, "utf8");
  if (parts.length === 0) return tail;
  parts.push(tail);
  return Buffer.concat(parts);
}
