/**
 * One read-only walk over a tool schema as the caller gave it, for the request-time check (issue 19:
 * checking a schema should cost about what reading it costs). It tells whether the schema is within
 * SCHEMA_LIMITS, is plain JSON data (a PyFloat taken for its number, as the text ajv is given prints
 * it; no other value JSON text would not keep), needs none of canonicalTypeNames's rewrites, and is one the
 * draft-07 meta-schema (meta.ts) takes, its keywords' shapes checked on the way; and it lists the
 * patterns (`pattern`, `patternProperties` keys) in it. When all of that holds, only the patterns are
 * left to compile: no copy, no second walk, no meta-schema validator run (that validator was most of
 * the check's cost). Otherwise the check takes its copy from the JSON text and the full path, which
 * decides with the meta-schema itself and words any error exactly as before, so this walk only has to
 * be sure when it says yes: it may refuse a schema the meta-schema takes (the full path then takes it,
 * at its cost), never the reverse.
 *
 * Subschemas are those forEachSubschema (walk.ts) visits: the same keyword lists (a superset of where
 * the meta-schema recurses, so every subschema it checks is checked here too).
 *
 * The walk allocates nothing per node (for-in, no Object.keys/values, no closures) and looks each
 * keyword up once, for both its meta-schema rule and whether it holds subschemas: with share-nothing
 * tools (every schema new) this walk was most of normalising the request (issue 19).
 */
import { PyFloat } from "../jinja/py-float.js";
import { SCHEMA_LIMITS } from "./limits.js";
import { LISTS as LIST_KEYWORDS, MAPS as MAP_KEYWORDS, SINGLE as SINGLE_KEYWORDS } from "./walk.js";

/** What a keyword of a subschema holds and what the meta-schema asks of it. */
const enum Kw {
  /** A keyword the meta-schema does not name and that holds no subschema: data, anything goes. */
  Data,
  /** A string (`title`, `description`, `format`...). */
  String,
  /** `$ref`: a string, and a reference only compiling can judge. */
  Ref,
  /** A string, and a pattern to compile. */
  Pattern,
  /** `$schema`: a string, except at the root (dropped before the meta-schema would see it). */
  Dialect,
  Boolean,
  /** `examples`: an array of anything. */
  Examples,
  /** `enum`: a non-empty array of anything. */
  Enum,
  /** `multipleOf`: a number above 0. */
  MultipleOf,
  Number,
  /** A non-negative integer (`maxLength`, `minItems`...). */
  Count,
  /** One subschema, as the meta-schema asks (`not`, `additionalProperties`...): an object or a boolean. */
  Single,
  /** `items`: one subschema or a non-empty list of them. */
  Items,
  /** A non-empty list of subschemas (`anyOf`...). */
  List,
  /** `required`: a list of strings. */
  Strings,
  /** A map of subschemas (`properties`, `definitions`...). */
  Map,
  /** `patternProperties`: a map of subschemas whose keys are patterns. */
  PatternMap,
  /** `dependencies`: a map of subschemas or string lists. */
  Dependencies,
  /** `type`: a type name, or a non-empty list of distinct ones. */
  Type,
  /** walk.ts keywords the meta-schema does not name (`unevaluatedProperties`, `prefixItems`, `dependentSchemas`): any value, an object (a list, a map) of subschemas visited as such. */
  FreeSingle,
  FreeList,
  FreeSingleOrList,
  FreeMap,
}

/** Each keyword's rule: walk.ts's lists first (where subschemas are), then the meta-schema's names over them. */
const KEYWORDS = new Map<string, Kw>();
for (const key of SINGLE_KEYWORDS) KEYWORDS.set(key, Kw.FreeSingle);
for (const key of LIST_KEYWORDS) KEYWORDS.set(key, KEYWORDS.get(key) === Kw.FreeSingle ? Kw.FreeSingleOrList : Kw.FreeList);
for (const key of MAP_KEYWORDS) KEYWORDS.set(key, Kw.FreeMap);
const META: ReadonlyArray<readonly [Kw, readonly string[]]> = [
  [Kw.Ref, ["$ref"]],
  [Kw.String, ["$id", "$comment", "title", "description", "format", "contentMediaType", "contentEncoding"]],
  [Kw.Pattern, ["pattern"]],
  [Kw.Dialect, ["$schema"]],
  [Kw.Boolean, ["readOnly", "uniqueItems"]],
  [Kw.Examples, ["examples"]],
  [Kw.Enum, ["enum"]],
  [Kw.MultipleOf, ["multipleOf"]],
  [Kw.Number, ["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"]],
  [Kw.Count, ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"]],
  [Kw.Single, ["additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not"]],
  [Kw.Items, ["items"]],
  [Kw.List, ["allOf", "anyOf", "oneOf"]],
  [Kw.Strings, ["required"]],
  [Kw.Map, ["definitions", "$defs", "properties"]],
  [Kw.PatternMap, ["patternProperties"]],
  [Kw.Dependencies, ["dependencies"]],
  [Kw.Type, ["type"]],
];
for (const [rule, keys] of META) for (const key of keys) KEYWORDS.set(key, rule);

/**
 * The rule of a keyword: the commonest ones compared first (keys are internalized strings, so each
 * compare is one pointer test); the Map's lookup cost about 8 ns a key (issue 19: 40 of the bench's 350).
 * `description`, a string `type`, `properties` and `required` are taken before (Survey.schema).
 */
function ruleOf(key: string): Kw {
  if (key === "type") return Kw.Type; // a list of type names (a name is taken before the switch)
  if (key === "additionalProperties") return Kw.Single;
  if (key === "items") return Kw.Items;
  if (key === "$schema") return Kw.Dialect; // every tool's root, from most MCP servers
  if (key === "default") return Kw.Data;
  if (key === "enum") return Kw.Enum;
  return KEYWORDS.get(key) ?? Kw.Data;
}

/** A JSON Schema type name, compared in turn, commonest first: cheaper than a Set's hashing (~90 in the bench's request). */
const isTypeName = (v: string): boolean =>
  v === "string" || v === "object" || v === "integer" || v === "number" || v === "boolean" || v === "array" || v === "null";

/** A JSON object (not null, not an array): where a subschema is expected, an object subschema. */
const isObjectLike = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** What the meta-schema takes where it expects a schema (`{"$ref": "#"}`): an object or a boolean. */
const isSchemaShape = (v: unknown): boolean => typeof v === "boolean" || isObjectLike(v);
/**
 * A finite number, or undefined: a PyFloat (an integral float the JSON text wrote as `1.0`, what a
 * Python client sends for a float default) is its number, as the schema's text for ajv prints it
 * (schemaText in index.ts; the validator is built from that text only).
 */
const numberOf = (v: unknown): number | undefined => {
  const n = v instanceof PyFloat ? v.value : v;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
};

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * What a survey learnt besides the patterns, for a caller that has no JSON text of the schema (a
 * deeply frozen one, checked by identity): a bound on that text's length, and whether it has a `$ref`
 * keyword (which only resolving, so compiling, can judge).
 */
export interface SurveyFacts {
  /** No less than the length of the schema's JSON text (each character of a string taken as 6, an escape). */
  textBound: number;
  /**
   * A subschema has a `$ref` keyword. Only there is it a reference (ajv resolves none in data, property
   * names or descriptions), so a string that merely shows as `"$ref"` in the text does not count: the
   * text-based check also compiles those at once, but finding them meant reading the last characters
   * of every string, a cache line apart from the rest for most descriptions (issue 19: 15% of the walk).
   */
  mentionsRef: boolean;
  /** Every object and array in it is frozen (so it can never change: what isDeepFrozen says, found on the way). */
  frozen: boolean;
}

/**
 * The schema's patterns in the order met, or undefined when the full path must check it. `facts` is
 * filled in when given; `deepFrozen` says the caller knows the schema to be deeply frozen already (its
 * containers are then not asked one by one); `plain`, that every object in it is a plain object, an
 * array or a PyFloat (it was read from JSON text), so no object is asked for its prototype.
 */
export function surveySchema(schema: object, facts?: SurveyFacts, deepFrozen = false, plain = false): readonly string[] | undefined {
  const survey = SURVEY.reset(!deepFrozen, plain);
  if (!survey.sub(schema, 1)) return undefined;
  if (facts !== undefined) {
    // Per entry at most 26 characters beside its strings: quotes, `:` and `,`, or a number's digits.
    facts.textBound = 6 * survey.stringChars + 32 * (survey.nodes + 1);
    facts.mentionsRef = survey.mentionsRef;
    facts.frozen = survey.frozen;
  }
  return survey.patterns ?? NO_PATTERNS;
}

const MAX_DEPTH = SCHEMA_LIMITS.maxDepth;
const MAX_NODES = SCHEMA_LIMITS.maxNodes;

/** What a schema without patterns gives (shared: callers only read it). */
const NO_PATTERNS: readonly string[] = Object.freeze([]);

/**
 * One walk's state. A single instance serves every survey (the walk calls out to nothing, so it never
 * runs inside another): with every schema of a request new, one per schema was an allocation each.
 */
class Survey {
  nodes = 0;
  stringChars = 0;
  mentionsRef = false;
  frozen = true;
  /** Made at the first pattern met (most schemas have none); the caller's once returned. */
  patterns: string[] | undefined = undefined;
  /** Whether to find out if every container is frozen (false when the caller knows it is). */
  private watch = true;
  /** Every object is a plain one, an array or a PyFloat (surveySchema's `plain`). */
  private plain = false;

  reset(watch: boolean, plain: boolean): this {
    this.nodes = 0;
    this.stringChars = 0;
    this.mentionsRef = false;
    this.frozen = true;
    this.patterns = undefined;
    this.watch = watch;
    this.plain = plain;
    return this;
  }

  /**
   * An object where a subschema or a map of them is: plain data. Asking for the prototype is a builtin
   * call V8 does not inline here (objects of many shapes pass); `instanceof` it inlines, and that is
   * all a value read from JSON text needs.
   */
  private isPlain(value: object): boolean {
    return this.plain ? !(value instanceof PyFloat) : isPlainObject(value);
  }

  private pattern(p: string): void {
    if (this.patterns === undefined) this.patterns = [p];
    else this.patterns.push(p);
  }

  /** A string of the schema (a key or a value): only its length counts (for the bound on the text's). */
  private text(s: string): void {
    this.stringChars += s.length;
  }

  /** A container met at `depth`: within the nesting limit, and whether it is frozen. */
  private enter(value: object, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    if (this.watch && this.frozen && !Object.isFrozen(value)) this.frozen = false;
    return true;
  }

  /** A value where a subschema is: an object is one; anything else is data (an array there holds none). */
  sub(value: unknown, depth: number): boolean {
    return isObjectLike(value) ? this.schema(value, depth) : this.data(value, depth);
  }

  /** Data inside a schema (an enum, a default): only counted, and held to what JSON text keeps. */
  private data(value: unknown, depth: number): boolean {
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
    if (value instanceof PyFloat) {
      // Its number is a field: one a caller can still set leaves the schema not frozen.
      if (this.watch && this.frozen && !Object.isFrozen(value)) this.frozen = false;
      return Number.isFinite(value.value);
    }
    if (!this.enter(value, depth)) return false;
    if (Array.isArray(value)) {
      if ((this.nodes += value.length) > MAX_NODES) return false;
      for (let i = 0; i < value.length; i++) if (!this.data(value[i], depth + 1)) return false;
      return true;
    }
    if (!isPlainObject(value)) return false; // a PyFloat, a Date, a Map ...
    const node = value as Record<string, unknown>;
    for (const key in node) {
      if (++this.nodes > MAX_NODES) return false;
      this.text(key);
      if (!this.data(node[key], depth + 1)) return false;
    }
    return true;
  }

  /**
   * A list of strings (`required`), counted as data: one pass (checking it a string list, then walking
   * it as data, cost a call per string, 1 us for the bench's 23 `required` lists).
   */
  private strings(value: unknown, depth: number): boolean {
    if (!Array.isArray(value) || !this.enter(value, depth)) return false;
    if ((this.nodes += value.length) > MAX_NODES) return false;
    for (let i = 0; i < value.length; i++) {
      const s: unknown = value[i];
      if (typeof s !== "string") return false;
      this.text(s);
    }
    return true;
  }

  /** A list of subschemas (`anyOf`, `items`); `meta`: each must be an object or a boolean. */
  private list(value: unknown[], depth: number, meta: boolean): boolean {
    if (!this.enter(value, depth)) return false;
    if ((this.nodes += value.length) > MAX_NODES) return false;
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (meta && !isSchemaShape(item)) return false;
      if (!this.sub(item, depth + 1)) return false;
    }
    return true;
  }

  /** A map of subschemas (`properties`); `rule` says what the meta-schema asks of its values, and whether its keys are patterns. */
  private map(value: Record<string, unknown>, depth: number, rule: Kw): boolean {
    if (!this.enter(value, depth) || !this.isPlain(value)) return false;
    for (const key in value) {
      if (++this.nodes > MAX_NODES) return false;
      this.text(key);
      const child = value[key];
      if (rule === Kw.Map || rule === Kw.PatternMap) {
        if (rule === Kw.PatternMap) this.pattern(key);
        // What the meta-schema asks of a member: an object (a subschema) or a boolean.
        if (typeof child === "boolean") continue;
        if (!isObjectLike(child) || !this.schema(child, depth + 1)) return false;
        continue;
      }
      if (rule === Kw.Dependencies && !isSchemaShape(child) && !isStringList(child)) return false;
      if (!this.sub(child, depth + 1)) return false;
    }
    return true;
  }

  /** A subschema that is an object: each keyword checked as the meta-schema would, and its subschemas visited. */
  private schema(node: Record<string, unknown>, depth: number): boolean {
    if (!this.enter(node, depth) || !this.isPlain(node)) return false;
    const below = depth + 1;
    for (const key in node) {
      if (++this.nodes > MAX_NODES) return false;
      this.text(key);
      const v = node[key];
      // The four commonest keywords first, each tested for itself: going through the rule's switch
      // (a search over its cases, not a table) cost 0.5 us of surveying the bench's 21 schemas (issue 19).
      if (key === "description") {
        if (typeof v !== "string") return false;
        this.text(v);
        continue;
      }
      if (key === "type" && typeof v === "string") {
        // A JSON Schema type name: no rewrite (canonicalTypeNames) changes it; anything else the meta-schema refuses or the rewrite renames.
        if (!isTypeName(v)) return false;
        this.text(v);
        continue;
      }
      if (key === "properties") {
        if (!isObjectLike(v) || !this.map(v, below, Kw.Map)) return false;
        continue;
      }
      if (key === "required") {
        if (!this.strings(v, below)) return false;
        continue;
      }
      const rule = ruleOf(key);
      switch (rule) {
        case Kw.Data:
          if (!this.data(v, below)) return false;
          break;
        case Kw.Pattern:
          if (typeof v !== "string") return false;
          this.pattern(v);
          this.text(v);
          break;
        case Kw.Dialect:
          // The root's `$schema` is dropped before the meta-schema would see it (the dialect is draft-07).
          if (typeof v === "string") this.text(v);
          else if (depth !== 1 || !this.data(v, below)) return false;
          break;
        case Kw.String:
          if (typeof v !== "string") return false;
          this.text(v);
          break;
        case Kw.Ref:
          if (typeof v !== "string") return false;
          this.text(v);
          this.mentionsRef = true;
          break;
        case Kw.Type:
          // A list of type names: a single name was taken before the switch.
          if (!isTypeList(v) || !this.data(v, below)) return false;
          break;
        case Kw.Map:
        case Kw.PatternMap:
        case Kw.Dependencies:
          if (!isObjectLike(v) || !this.map(v, below, rule)) return false;
          break;
        case Kw.Strings:
          if (!this.strings(v, below)) return false;
          break;
        case Kw.Single:
          if (typeof v !== "boolean" && (!isObjectLike(v) || !this.schema(v, below))) return false;
          break;
        case Kw.Items:
          if (typeof v === "boolean") break;
          if (Array.isArray(v)) {
            if (v.length === 0 || !this.list(v, below, true)) return false;
          } else if (!isObjectLike(v) || !this.schema(v, below)) return false;
          break;
        case Kw.List:
          if (!Array.isArray(v) || v.length === 0 || !this.list(v, below, true)) return false;
          break;
        case Kw.Enum:
          if (!Array.isArray(v) || v.length === 0 || !this.data(v, below)) return false;
          break;
        case Kw.Examples:
          if (!Array.isArray(v) || !this.data(v, below)) return false;
          break;
        case Kw.Boolean:
          if (typeof v !== "boolean") return false;
          break;
        case Kw.Number:
          if (numberOf(v) === undefined) return false;
          break;
        case Kw.MultipleOf: {
          const n = numberOf(v);
          if (n === undefined || n <= 0) return false;
          break;
        }
        case Kw.Count: {
          const n = numberOf(v);
          if (n === undefined || !Number.isInteger(n) || n < 0) return false;
          break;
        }
        case Kw.FreeSingle:
          if (!this.sub(v, below)) return false;
          break;
        case Kw.FreeList:
          if (!(Array.isArray(v) ? this.list(v, below, false) : this.data(v, below))) return false;
          break;
        case Kw.FreeSingleOrList:
          if (!(Array.isArray(v) ? this.list(v, below, false) : this.sub(v, below))) return false;
          break;
        case Kw.FreeMap:
          if (!(isObjectLike(v) ? this.map(v, below, Kw.FreeMap) : this.data(v, below))) return false;
          break;
      }
    }
    return true;
  }
}

const SURVEY = new Survey();

function isStringList(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== "string") return false;
  return true;
}

/** A non-empty list of distinct JSON Schema type names (a repeat the rewrite would drop, so the full path decides). */
function isTypeList(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  for (let i = 0; i < v.length; i++) {
    const t: unknown = v[i];
    if (typeof t !== "string" || !isTypeName(t) || v.indexOf(t) !== i) return false;
  }
  return true;
}
