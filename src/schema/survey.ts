/**
 * One read-only walk over a tool schema as the caller gave it, for the request-time check (issue 19:
 * checking a schema should cost about what reading it costs). It tells whether the schema is within
 * SCHEMA_LIMITS, is plain JSON data (no PyFloat, which the meta-schema would not take for a number; no
 * value JSON text would not keep), needs none of canonicalTypeNames's rewrites, and is one the
 * draft-07 meta-schema (meta.ts) takes, its keywords' shapes checked on the way (metaKeywordOk); and
 * it lists the patterns (`pattern`, `patternProperties` keys) in it. When all of that holds, only the
 * patterns are left to compile: no copy, no second walk, no meta-schema validator run (that validator
 * was most of the check's cost). Otherwise the check takes its copy from the JSON text and the full
 * path, which decides with the meta-schema itself and words any error exactly as before, so this walk
 * only has to be sure when it says yes: it may refuse a schema the meta-schema takes (the full path
 * then takes it, at its cost), never the reverse.
 *
 * Subschemas are those forEachSubschema (walk.ts) visits: the same keyword lists (a superset of where
 * the meta-schema recurses, so every subschema it checks is checked here too).
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

/**
 * What a survey learnt besides the patterns, for a caller that has no JSON text of the schema (a
 * deeply frozen one, checked by identity): a bound on that text's length, and whether the text would
 * hold the string `"$ref"` (what the text-based check looks for).
 */
export interface SurveyFacts {
  /** No less than the length of the schema's JSON text (each character of a string taken as 6, an escape). */
  textBound: number;
  /** A key or string that JSON text would show as `"$ref"` ("$ref" itself, or one ending in a quote and `$ref`). */
  mentionsRef: boolean;
  /** Every object and array in it is frozen (so it can never change: what isDeepFrozen says, found on the way). */
  frozen: boolean;
}

/** The schema's patterns in the order met, or undefined when the full path must check it. `facts` is filled in when given. */
export function surveySchema(schema: object, facts?: SurveyFacts): string[] | undefined {
  const survey = new Survey();
  if (!survey.visit(schema, 1, Kind.Schema)) return undefined;
  if (facts !== undefined) {
    // Per entry at most 26 characters beside its strings: quotes, `:` and `,`, or a number's digits.
    facts.textBound = 6 * survey.stringChars + 32 * (survey.nodes + 1);
    facts.mentionsRef = survey.mentionsRef;
    facts.frozen = survey.frozen;
  }
  return survey.patterns;
}

const mentionsRef = (s: string): boolean => s.length >= 4 && s.endsWith("$ref") && (s.length === 4 || s.charCodeAt(s.length - 5) === 0x22);

class Survey {
  nodes = 0;
  stringChars = 0;
  mentionsRef = false;
  frozen = true;
  readonly patterns: string[] = [];

  private text(s: string): void {
    this.stringChars += s.length;
    if (mentionsRef(s)) this.mentionsRef = true;
  }

  visit(value: unknown, depth: number, kind: Kind): boolean {
    switch (typeof value) {
      case "string":
        this.text(value);
        return true;
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
    if (this.frozen && !Object.isFrozen(value)) this.frozen = false;
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
      this.text(key);
      const child = node[key];
      // The root's `$schema` is dropped before the meta-schema would see it (the dialect is draft-07).
      if (kind === Kind.Schema && !metaKeywordOk(key, child) && !(depth === 1 && key === "$schema")) return false;
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

const TYPE_NAMES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** What the meta-schema takes where it expects a schema (`{"$ref": "#"}`): an object or a boolean. */
const isSchemaShape = (v: unknown): boolean => typeof v === "boolean" || isObject(v);
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isCount = (v: unknown): boolean => isNumber(v) && Number.isInteger(v) && v >= 0;
const isSchemaList = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every(isSchemaShape);
const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === "string");
const isSchemaMap = (v: unknown): boolean => isObject(v) && Object.values(v).every(isSchemaShape);

/**
 * Whether the draft-07 meta-schema (meta.ts, formats not validated) takes `value` under keyword `key`
 * of a subschema, the subschemas inside it aside (the walk visits those as schemas in turn). Any key
 * the meta-schema does not name takes anything.
 */
function metaKeywordOk(key: string, value: unknown): boolean {
  switch (key) {
    case "$id":
    case "$schema":
    case "$ref":
    case "$comment":
    case "title":
    case "description":
    case "pattern":
    case "format":
    case "contentMediaType":
    case "contentEncoding":
      return typeof value === "string";
    case "readOnly":
    case "uniqueItems":
      return typeof value === "boolean";
    case "examples":
      return Array.isArray(value);
    case "enum":
      return Array.isArray(value) && value.length > 0;
    case "multipleOf":
      return isNumber(value) && value > 0;
    case "maximum":
    case "exclusiveMaximum":
    case "minimum":
    case "exclusiveMinimum":
      return isNumber(value);
    case "maxLength":
    case "minLength":
    case "maxItems":
    case "minItems":
    case "maxProperties":
    case "minProperties":
      return isCount(value);
    case "additionalItems":
    case "contains":
    case "additionalProperties":
    case "propertyNames":
    case "if":
    case "then":
    case "else":
    case "not":
      return isSchemaShape(value);
    case "items":
      return isSchemaShape(value) || isSchemaList(value);
    case "allOf":
    case "anyOf":
    case "oneOf":
      return isSchemaList(value);
    case "required":
      return isStringList(value);
    case "definitions":
    case "$defs":
    case "properties":
    case "patternProperties":
      return isSchemaMap(value);
    case "dependencies":
      return isObject(value) && Object.values(value).every((v) => isSchemaShape(v) || isStringList(v));
    case "type":
      if (typeof value === "string") return TYPE_NAMES.has(value);
      // Repeats were refused already (schemaNode): the rewrite would drop them.
      return Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === "string" && TYPE_NAMES.has(t));
    default:
      return true; // `default`, `const`, and every keyword the meta-schema does not name
  }
}
