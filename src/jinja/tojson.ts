/**
 * transformers' `tojson` filter: `json.dumps(x, ensure_ascii=False, indent=, separators=, sort_keys=)`.
 * Python-exact: `1.0` stays `1.0`, `1e-05`, separators `, ` and `: ` by default (`,` with an indent),
 * tuples are arrays, non-ASCII is kept. Results for the same object and options are cached per render
 * (the immutable sandbox means a template cannot change an object between two calls).
 */
import { PyFloat } from "./py-float.js";
import { JinjaError, Undefined, compareStrings, floatRepr, isDict, numberStr, typeName } from "./values.js";
import { budget } from "./limits.js";

export interface JsonOptions {
  indent: string | null;
  itemSeparator: string;
  keySeparator: string;
  sortKeys: boolean;
  ensureAscii: boolean;
}

/** json.encoder: the characters escaped when ensure_ascii=False (JSON.stringify escapes the same set). */
function encodeString(s: string, ascii: boolean): string {
  const json = JSON.stringify(s);
  if (!ascii) return json;
  return json.replace(/[^\x00-\x7f]/g, (ch) => "\\u" + ch.charCodeAt(0).toString(16).padStart(4, "0"));
}

function floatJson(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  return floatRepr(x);
}

function keyString(k: string, ascii: boolean): string {
  return encodeString(k, ascii);
}

export function dumpJson(value: unknown, options: JsonOptions, depth = 0): string {
  switch (typeof value) {
    case "string":
      return encodeString(value, options.ensureAscii);
    case "number":
      return Number.isInteger(value) ? numberStr(value) : floatJson(value);
    case "bigint":
      return value.toString();
    case "boolean":
      return value ? "true" : "false";
  }
  if (value === null) return "null";
  if (value instanceof PyFloat) return floatJson(value.value);
  if (depth > budget().limits.maxDepth) {
    throw new JinjaError("RecursionError", "maximum recursion depth exceeded while encoding a JSON object");
  }
  const { indent } = options;
  const inner = indent === null ? "" : "\n" + indent.repeat(depth + 1);
  const outer = indent === null ? "" : "\n" + indent.repeat(depth);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const parts = value.map((v) => dumpJson(v, options, depth + 1));
    return "[" + inner + parts.join(options.itemSeparator + inner) + outer + "]";
  }
  if (isDict(value)) {
    let keys = Object.keys(value);
    if (keys.length === 0) return "{}";
    if (options.sortKeys) keys = keys.slice().sort(compareStrings);
    const parts: string[] = [];
    for (const k of keys) {
      const v = value[k];
      parts.push(keyString(k, options.ensureAscii) + options.keySeparator + dumpJson(v, options, depth + 1));
    }
    return "{" + inner + parts.join(options.itemSeparator + inner) + outer + "}";
  }
  const name = value instanceof Undefined ? "Undefined" : typeName(value);
  throw new JinjaError("TypeError", `Object of type ${name} is not JSON serializable`);
}

/** Per-render cache: object identity -> options key -> JSON text. */
export class JsonCache {
  private readonly byObject = new WeakMap<object, Map<string, string>>();
  dump(value: unknown, options: JsonOptions): string {
    if (value === null || typeof value !== "object" || value instanceof PyFloat) return dumpJson(value, options);
    const key = `${options.indent ?? "-"}\u0000${options.itemSeparator}\u0000${options.keySeparator}\u0000${options.sortKeys}\u0000${options.ensureAscii}`;
    let perObject = this.byObject.get(value);
    if (perObject === undefined) {
      perObject = new Map();
      this.byObject.set(value, perObject);
    }
    let text = perObject.get(key);
    if (text === undefined) {
      text = dumpJson(value, options);
      perObject.set(key, text);
    }
    budget().stringLength(text.length);
    return text;
  }
}
