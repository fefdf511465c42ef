/**
 * What a tool schema may cost. A schema comes with the request (trusted more than model output, but a
 * server takes requests from anyone), and compiling one is work done before any output is seen, so
 * absurd ones are refused with a typed error instead of being compiled. Documented in docs/validation.md.
 */
import { SchemaProblem } from "./problem.js";

export const SCHEMA_LIMITS = {
  /** JSON text of one tool's `parameters`, in characters (a 40k-value enum is about 400 KB). */
  maxChars: 1_000_000,
  /** Nesting of objects and arrays inside one schema. */
  maxDepth: 64,
  /** Entries (object members plus array items) across the whole schema. */
  maxNodes: 200_000,
} as const;

/** Throws SchemaProblem("limit") when `schema` (with its JSON text `text`) is past a limit. */
export function checkLimits(schema: unknown, text: string): void {
  if (text.length > SCHEMA_LIMITS.maxChars) {
    throw new SchemaProblem(`the schema is ${text.length} characters of JSON, more than the limit of ${SCHEMA_LIMITS.maxChars}`, "limit");
  }
  let nodes = 0;
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (typeof value !== "object" || value === null) continue;
    if (depth > SCHEMA_LIMITS.maxDepth) {
      throw new SchemaProblem(`the schema nests deeper than the limit of ${SCHEMA_LIMITS.maxDepth}`, "limit");
    }
    const children = Array.isArray(value) ? value : Object.values(value);
    nodes += children.length;
    if (nodes > SCHEMA_LIMITS.maxNodes) {
      throw new SchemaProblem(`the schema has more than ${SCHEMA_LIMITS.maxNodes} members and items, the limit`, "limit");
    }
    for (const child of children) stack.push([child, depth + 1]);
  }
}
