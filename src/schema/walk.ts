/**
 * Visits every subschema of a JSON Schema (draft-07 keywords plus the 2019-09/2020-12 ones tool schemas
 * use), so that rewriting a keyword never touches data that merely looks like one (a property named
 * `pattern`, a `default` value with a `format` key).
 */
type SchemaObject = Record<string, unknown>;

/** The keywords holding one subschema, a list of them, a map of them (survey.ts reads the same lists). */
export const SINGLE: readonly string[] = ["not", "if", "then", "else", "additionalProperties", "additionalItems", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "items"];
export const LISTS: readonly string[] = ["allOf", "anyOf", "oneOf", "items", "prefixItems"];
export const MAPS: readonly string[] = ["properties", "patternProperties", "definitions", "$defs", "dependentSchemas", "dependencies"];

/** A schema that is an object (not `true`/`false`, not an array or null): the one test every layer uses. */
export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function forEachSubschema(root: unknown, visit: (schema: SchemaObject) => void): void {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isSchemaObject(node) || seen.has(node)) continue;
    seen.add(node);
    visit(node);
    for (const key of SINGLE) if (isSchemaObject(node[key])) stack.push(node[key]);
    for (const key of LISTS) {
      const list = node[key];
      if (Array.isArray(list)) stack.push(...list);
    }
    for (const key of MAPS) {
      const map = node[key];
      if (isSchemaObject(map)) stack.push(...Object.values(map)); // `dependencies` arrays are skipped by isSchemaObject
    }
  }
}
