/**
 * Typing raw parameter text by the tool's JSON Schema, for the tagged (XML-like) formats whose values are
 * untyped text (`<parameter=k>\n42\n</parameter>`). The rules are Qwen3-Coder's reference behaviour, as
 * docs/formats.md ("Typing rules for raw values") states them:
 * - strip exactly one leading and one trailing newline (the template's layout, not the value);
 * - a key that is not in the schema stays a string (some families decode it as JSON instead: `untyped`);
 * - `string` keeps the text verbatim (`03106` stays `"03106"`, spaces are kept);
 * - `integer`, `number`, `boolean`, `object`, `array` are read from the trimmed text (objects and arrays as
 *   JSON, then as a Python literal); `null`/`None` becomes null only when the schema allows null;
 * - unions (`anyOf`/`oneOf`, type arrays) try their types in the order null, integer, number, boolean,
 *   object, array, string; when nothing fits the text stays a string (ajv then reports the mismatch).
 * Local `$ref`s (`#/$defs/X`, `#/definitions/X`) are resolved against the tool's parameters schema.
 */
import type { JsonSchema } from "../types.js";
import { jsonStringBody, readNumber } from "./literal/json-text.js";
import { readLiteral } from "./literal/value-reader.js";
import { TYPE_ALIASES, type ValueType } from "../schema/aliases.js";
import { isSchemaObject } from "../schema/walk.js";
import { holdsNonFiniteNumber } from "./validate.js";

export type { ValueType } from "../schema/aliases.js";

/** The order in which a union's types are tried. */
export const TYPE_ORDER: readonly ValueType[] = ["null", "integer", "number", "boolean", "object", "array", "string"];
/** A value with no schema: string only (Qwen3-Coder), or anything JSON can say (GLM, DSML `string="false"`). */
export const UNTYPED_STRING: readonly ValueType[] = ["string"];
export const UNTYPED_JSON: readonly ValueType[] = TYPE_ORDER;

const MAX_REF_DEPTH = 32;

/** Follows a local `$ref` (`#/$defs/Name`, `#/definitions/Name`, any `#/a/b` JSON pointer) in `root`. */
export function resolveRef(schema: JsonSchema, root: JsonSchema | undefined): JsonSchema {
  let s = schema;
  for (let depth = 0; depth < MAX_REF_DEPTH && typeof s.$ref === "string" && root !== undefined; depth++) {
    const ref = s.$ref as string;
    if (!ref.startsWith("#")) break;
    let target: unknown = root;
    for (const raw of ref.slice(1).split("/").filter((p) => p !== "")) {
      const part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      target = isSchemaObject(target) ? target[part] : undefined;
    }
    if (!isSchemaObject(target)) break;
    s = target;
  }
  return s;
}

/** The schema of property `key` in a tool's parameters schema (through `$ref`, `allOf`), if declared. */
export function propertySchema(parameters: JsonSchema | undefined, key: string): JsonSchema | undefined {
  if (parameters === undefined) return undefined;
  const found = findProperty(resolveRef(parameters, parameters), key, parameters, 0);
  return found === undefined ? undefined : resolveRef(found, parameters);
}

function findProperty(schema: JsonSchema, key: string, root: JsonSchema, depth: number): JsonSchema | undefined {
  if (depth > MAX_REF_DEPTH) return undefined;
  const props = schema.properties;
  if (isSchemaObject(props) && Object.prototype.hasOwnProperty.call(props, key) && isSchemaObject(props[key])) {
    return props[key] as JsonSchema;
  }
  for (const k of ["allOf", "anyOf", "oneOf"]) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    for (const sub of list) {
      if (!isSchemaObject(sub)) continue;
      const f = findProperty(resolveRef(sub, root), key, root, depth + 1);
      if (f !== undefined) return f;
    }
  }
  return undefined;
}

/**
 * The types a schema allows, in trial order. A schema that names no type but has `properties`/`items`,
 * or `enum`/`const` values, implies its type; one that says nothing at all is read as a string, as the
 * reference parser does.
 */
export function schemaTypes(schema: JsonSchema | undefined, root: JsonSchema | undefined): readonly ValueType[] {
  if (schema === undefined) return UNTYPED_STRING;
  const found = new Set<ValueType>();
  collectTypes(resolveRef(schema, root), root, found, 0);
  if (found.size === 0) return UNTYPED_STRING;
  return TYPE_ORDER.filter((t) => found.has(t));
}

function collectTypes(schema: JsonSchema, root: JsonSchema | undefined, out: Set<ValueType>, depth: number): void {
  if (depth > MAX_REF_DEPTH) return;
  const type = schema.type;
  const names = typeof type === "string" ? [type] : Array.isArray(type) ? type : [];
  for (const n of names) {
    const t = typeof n === "string" ? TYPE_ALIASES[n.toLowerCase()] : undefined;
    if (t !== undefined) out.add(t);
  }
  if (names.length > 0 && schema.nullable === true) out.add("null");
  let branched = false;
  for (const k of ["anyOf", "oneOf"]) {
    const list = schema[k];
    if (!Array.isArray(list)) continue;
    for (const sub of list) {
      if (isSchemaObject(sub)) {
        branched = true;
        collectTypes(resolveRef(sub, root), root, out, depth + 1);
      }
    }
  }
  if (names.length > 0 || branched) return;
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  for (const v of values) out.add(typeOfValue(v));
  if (isSchemaObject(schema.properties)) out.add("object");
  if (schema.items !== undefined) out.add("array");
}

function typeOfValue(v: unknown): ValueType {
  if (v === null) return "null";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return "string";
  return Array.isArray(v) ? "array" : "object";
}

/** Removes exactly one leading and one trailing newline (`\n` or `\r\n`). */
export function stripOuterNewlines(text: string): string {
  let s = text;
  if (s.startsWith("\r\n")) s = s.slice(2);
  else if (s.startsWith("\n")) s = s.slice(1);
  if (s.endsWith("\r\n")) s = s.slice(0, -2);
  else if (s.endsWith("\n")) s = s.slice(0, -1);
  return s;
}

/** A typed value and its JSON text (Python json.dumps style, the model's characters kept). */
export interface TypedValue {
  value: unknown;
  json: string;
}

/**
 * Types `text` (already stripped of its outer newlines) by trying `types` in order; a string when none
 * fits. Non-string types read the text without surrounding whitespace.
 */
export function typeRawValue(text: string, types: readonly ValueType[]): TypedValue {
  const t = text.trim();
  for (const type of types) {
    const typed = tryType(text, t, type);
    if (typed !== undefined) return typed;
  }
  return { value: text, json: `"${jsonStringBody(text)}"` };
}

function tryType(text: string, t: string, type: ValueType): TypedValue | undefined {
  switch (type) {
    case "null":
      return t === "null" || t === "None" ? { value: null, json: "null" } : undefined;
    case "integer": {
      if (/^[+-]?\d+$/.test(t)) {
        const big = BigInt(t);
        const value = Number(big);
        // Too large for a double (it would read as Infinity): not a number JSON can carry, the text stays.
        return Number.isFinite(value) ? { value, json: big.toString() } : undefined;
      }
      // JSON Schema counts `3.0` as an integer too.
      const n = readNumber(t, "python");
      return n !== undefined && Number.isInteger(n.value) ? { value: n.value, json: n.json } : undefined;
    }
    case "number": {
      // `1e999` reads as Infinity: the text stays a string (the schema check then reports it), as the
      // peers' typed-coercion detectors degrade it.
      const n = readNumber(t, "python");
      return n === undefined || !Number.isFinite(n.value) ? undefined : { value: n.value, json: n.json };
    }
    case "boolean": {
      const l = t.toLowerCase();
      return l === "true" ? { value: true, json: "true" } : l === "false" ? { value: false, json: "false" } : undefined;
    }
    case "object":
    case "array": {
      if (!t.startsWith(type === "object" ? "{" : "[") && !(type === "array" && t.startsWith("("))) return undefined;
      const lit = readLiteral(t);
      if (lit === undefined || holdsNonFiniteNumber(lit.value)) return undefined;
      const isArray = Array.isArray(lit.value);
      return (type === "array") === isArray && typeof lit.value === "object" && lit.value !== null ? lit : undefined;
    }
    case "string":
      return { value: text, json: `"${jsonStringBody(text)}"` };
  }
}

/**
 * While a value streams in, whether its text so far (outer newline already removed) could still turn out
 * to be one of the non-string `types`. Once it cannot, a value whose types include `string` can be
 * written as a JSON string as it arrives.
 */
export function couldBeNonString(prefix: string, types: readonly ValueType[]): boolean {
  const t = prefix.trim();
  if (t === "") return types.some((x) => x !== "string");
  for (const type of types) {
    switch (type) {
      case "null":
        if ("null".startsWith(t) || "None".startsWith(t)) return true;
        break;
      case "boolean":
        if ("true".startsWith(t.toLowerCase()) || "false".startsWith(t.toLowerCase())) return true;
        break;
      case "integer":
      case "number":
        if (/^[+-]?[0-9_.]*(?:[eE][+-]?[0-9_]*)?$/.test(t) || /^[+-]?0[xXoObB][0-9a-fA-F_]*$/.test(t)) return true;
        break;
      case "object":
        if (t.startsWith("{")) return true;
        break;
      case "array":
        if (t.startsWith("[") || t.startsWith("(")) return true;
        break;
      case "string":
        break;
    }
  }
  return false;
}
