/**
 * One read-only walk over a tool schema as the caller gave it, for the request-time check (issue 19:
 * checking a schema should cost about what reading it costs). It tells whether the schema is within
 * SCHEMA_LIMITS, is plain JSON data (no PyFloat, which the meta-schema would not take for a number; no
 * value JSON text would not keep), and needs none of canonicalTypeNames's rewrites; and it lists the
 * patterns (`pattern`, `patternProperties` keys) in it. When all of that holds, the meta-schema can be
 * checked on the schema itself, with no copy and no second or third walk; otherwise the check takes its
 * copy from the JSON text and the full path, which also words any error exactly as before.
 *
 * Subschemas are those forEachSubschema (walk.ts) visits: the same keyword lists.
 */
import { canonical } from "./aliases.js";
import { SCHEMA_LIMITS } from "./limits.js";
import { LISTS as LIST_KEYWORDS, MAPS as MAP_KEYWORDS, SINGLE as SINGLE_KEYWORDS } from "./walk.js";

const enum Kind {
  /** Data inside a schema (an enum, a default, a `dependencies` list): only counted. */
  Data,
  /** A subschema. */
  Schema,
  /** A list or map of subschemas (`anyOf`, `properties`): each item or value is one. */
  Schemas,
}

/** Keywords holding one subschema, a list of them, a map of them: walk.ts's lists. `items` is one or a list. */
const SINGLE = new Set(SINGLE_KEYWORDS);
const LISTS = new Set(LIST_KEYWORDS);
const MAPS = new Set(MAP_KEYWORDS);

/** What the value of `key` in a subschema is: a keyword given the wrong shape holds no subschema. */
function roleOf(key: string, child: unknown): Kind {
  if (typeof child !== "object" || child === null) return Kind.Data;
  if (Array.isArray(child)) return LISTS.has(key) ? Kind.Schemas : Kind.Data;
  return SINGLE.has(key) ? Kind.Schema : MAPS.has(key) ? Kind.Schemas : Kind.Data;
}

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** The schema's patterns in the order met, or undefined when the full path must check it. */
export function surveySchema(schema: object): string[] | undefined {
  const survey = new Survey();
  return survey.visit(schema, 1, Kind.Schema) ? survey.patterns : undefined;
}

class Survey {
  nodes = 0;
  readonly patterns: string[] = [];

  visit(value: unknown, depth: number, kind: Kind): boolean {
    switch (typeof value) {
      case "string":
      case "boolean":
        return true;
      case "number":
        return Number.isFinite(value);
      case "object":
        break;
      default:
        return false; // undefined, a function, a symbol, a bigint: not what JSON text holds
    }
    if (value === null) return true;
    if (depth > SCHEMA_LIMITS.maxDepth) return false;
    if (Array.isArray(value)) {
      if ((this.nodes += value.length) > SCHEMA_LIMITS.maxNodes) return false;
      const items = kind === Kind.Schemas ? Kind.Schema : Kind.Data;
      for (let i = 0; i < value.length; i++) if (!this.visit(value[i], depth + 1, items)) return false;
      return true;
    }
    if (!isPlainObject(value)) return false; // a PyFloat, a Date, a Map ...
    const node = value as Record<string, unknown>;
    const keys = Object.keys(node);
    if ((this.nodes += keys.length) > SCHEMA_LIMITS.maxNodes) return false;
    if (kind === Kind.Schema && !this.schemaNode(node)) return false;
    for (const key of keys) {
      const child = node[key];
      const role = kind === Kind.Schemas ? Kind.Schema : kind === Kind.Schema ? roleOf(key, child) : Kind.Data;
      if (!this.visit(child, depth + 1, role)) return false;
    }
    return true;
  }

  /** A subschema's own checks: a type name the rewrite would change sends the schema the full way. */
  private schemaNode(node: Record<string, unknown>): boolean {
    const type = node.type;
    if (typeof type === "string") {
      if (canonical(type) !== type) return false;
    } else if (Array.isArray(type)) {
      for (let i = 0; i < type.length; i++) {
        if (canonical(type[i]) !== type[i] || type.indexOf(type[i]) !== i) return false; // renamed, or a repeat the rewrite drops
      }
    }
    if (typeof node.pattern === "string") this.patterns.push(node.pattern);
    const keyed = node.patternProperties;
    if (typeof keyed === "object" && keyed !== null) for (const key of Object.keys(keyed)) this.patterns.push(key);
    return true;
  }
}
