/**
 * Tool authors write Python's type names (`"type": "float"`, `"int"`, `"dict"`) and models are trained
 * on such schemas; the argument coercer already reads them as the JSON Schema types they mean, so the
 * validator does too (on its own copy; the template still sees the schema as written). Any other
 * unknown type name (`"integr"`) stays and fails the meta-schema check.
 */
import { forEachSubschema } from "./walk.js";

/** The JSON Schema type names. */
export type ValueType = "null" | "integer" | "number" | "boolean" | "object" | "array" | "string";

/**
 * Type names models' schemas use besides JSON Schema's own (`float` from Python-minded tool authors),
 * lower case. The validator rewrites them (below) and the argument coercer (src/parse/coerce.ts) reads
 * them, so both take a schema the same way.
 */
export const TYPE_ALIASES: Readonly<Record<string, ValueType>> = {
  null: "null", integer: "integer", int: "integer", number: "number", float: "number", double: "number",
  boolean: "boolean", bool: "boolean", object: "object", dict: "object", array: "array", list: "array",
  string: "string", str: "string", text: "string",
};

/** The JSON Schema name for a type name (an alias rewritten; anything else as it is). */
export function canonical(name: unknown): unknown {
  if (typeof name !== "string") return name;
  const lower = name.toLowerCase(); // as the coercer reads them
  return Object.hasOwn(TYPE_ALIASES, lower) ? TYPE_ALIASES[lower] : name;
}

/** Rewrites alias type names in place. */
export function canonicalTypeNames(schema: unknown): void {
  forEachSubschema(schema, (node) => {
    if (typeof node.type === "string") node.type = canonical(node.type);
    else if (Array.isArray(node.type)) node.type = [...new Set(node.type.map(canonical))];
  });
}
