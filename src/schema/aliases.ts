/**
 * Tool authors write Python's type names (`"type": "float"`, `"int"`, `"dict"`) and models are trained
 * on such schemas; the argument coercer already reads them as the JSON Schema types they mean, so the
 * validator does too (on its own copy; the template still sees the schema as written). Any other
 * unknown type name (`"integr"`) stays and fails the meta-schema check.
 */
import { TYPE_ALIASES } from "../parse/coerce.js";
import { forEachSubschema } from "./walk.js";

function canonical(name: unknown): unknown {
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
