/**
 * JSON Schema -> GBNF rules for tool arguments. Supported: object (properties in declared order, each
 * optional one may be left out; additionalProperties), string (minLength/maxLength, pattern: see
 * regex-gbnf.ts), number, integer (minimum/maximum and exclusive bounds: int-range.ts), boolean, null, enum, const, array (items, prefixItems, minItems/maxItems), anyOf/oneOf, allOf of
 * objects, type lists, nullable, $ref to #/$defs and #/definitions. Every other keyword is relaxed (the
 * grammar accepts more than the schema) and listed in `relaxed`, which the grammar prints as a comment;
 * the parser's ajv validation still checks the full schema afterwards.
 */
import { dumpJson } from "../jinja/tojson.js";
import { PyFloat } from "../jinja/py-float.js";
import { alt, lit, type Capture, type GbnfBuilder } from "./gbnf.js";
import { anyValueRule, primitive, scalarRule, type ValueSyntax } from "./primitives.js";
import { integerBounds, integerRange } from "./int-range.js";
import { anyCharGbnf, regexToGbnf } from "./regex-gbnf.js";
import type { TextGuard } from "./text-rules.js";
import { schemaTypes, type ValueType } from "../parse/coerce.js";
import { isSchemaObject } from "../schema/walk.js";
import type { JsonSchema } from "../types.js";

type Schema = Record<string, unknown>;

/** How an object's members are written: JSON/Python dicts, Python keyword arguments, XML-ish tags. */
export interface ObjectSyntax {
  open: string;
  close: string;
  /** What precedes a property's value (its key and separator). */
  key(name: string): string;
  /** What follows a property's value. */
  after: string;
  /** What follows the value of this property, when it depends on the key (an element's close tag). */
  afterKey?(name: string): string;
  /** Between members. */
  sep: string;
  /** A key that is not declared, for additionalProperties; absent: only declared keys are written. */
  anyKey?: string;
  /** How member values are written. */
  values: ValueSyntax;
  /**
   * Each member value is its own rule, marked as that parameter's value (kwargs and tags: the members
   * are the arguments themselves, not an object text that reads back whole).
   */
  captureMembers?: boolean;
}

/** Keywords the converter turns into rules; anything else that constrains values is reported as relaxed. */
const HANDLED = new Set([
  "type", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems", "maxItems",
  "enum", "const", "anyOf", "oneOf", "allOf", "$ref", "$defs", "definitions", "minLength", "maxLength", "nullable",
  // Enforced for some types only; typed() relaxes them where they are not.
  "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
]);
/** Keywords of number ranges. */
const RANGE = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
/** Keywords that say nothing about which values are valid. */
const ANNOTATIONS = new Set([
  "title", "description", "default", "examples", "$schema", "$id", "$comment", "deprecated", "readOnly", "writeOnly", "strict",
]);

const PY_JSON = { indent: null, itemSeparator: ", ", keySeparator: ": ", sortKeys: false, ensureAscii: false };

/** A schema object; a PyFloat (a request's `1.0`, an object here) is a value, never a schema. */
function isSchema(x: unknown): x is Schema {
  return isSchemaObject(x) && !(x instanceof PyFloat);
}

export class SchemaRules {
  /** `keyword at path` for every keyword the grammar does not enforce. */
  readonly relaxed: string[] = [];
  /** Rule names of the definitions already built, per tool schema (two tools may both define `node`). */
  private readonly refs = new WeakMap<Schema, Map<string, string>>();
  /** Raw string rules made so far, by the guard they carry. */
  private readonly rawStringRules = new Map<string, string>();
  /** Inside a raw union that allows strings: the other types the parser would try first. */
  private rawSiblings: readonly ValueType[] = [];

  constructor(
    private readonly builder: GbnfBuilder,
    /** Makes the rule for a raw (unquoted) string value, for the raw syntax (called when first needed). */
    private readonly rawString?: (guard: TextGuard | undefined, hint: string) => string,
    /** The markers a raw value may not hold (for patterns on raw strings). */
    private readonly rawMarkers?: () => readonly string[],
  ) {}

  /** The rule for a tool's arguments object written with `syntax`; `root` resolves `$ref`s. */
  objectRule(schema: Schema | undefined, hint: string, syntax: ObjectSyntax): string {
    // No parameters at all: the tool takes no arguments (OpenAI's reading), so `{}`.
    const root = schema ?? { type: "object", properties: {} };
    this.noteRelaxed(root, hint);
    const object = Array.isArray(root.allOf) ? this.mergeAllOf(root, hint, root) : root;
    const rule = this.builder.add(hint, this.objectBody(object, hint, syntax, root));
    if (syntax.captureMembers === true || syntax.values === "raw") return rule;
    const capture: Capture = syntax.values === "gemma" ? { kind: "args", decode: "gemma", quote: this.builder.stringQuote } : { kind: "args", decode: syntax.values };
    return this.builder.capture(rule, capture);
  }

  /** An expression for a value of `schema` written in `syntax`. */
  value(schema: unknown, hint: string, syntax: ValueSyntax, root: Schema): string {
    if (syntax !== "raw" || !isSchema(schema)) return this.valueOf(schema, hint, syntax, root);
    // A raw value is typed by the parser: a union tries its other types before string, so the string
    // branch must not hold text that reads as one of them.
    const outer = this.rawSiblings;
    const types = schemaTypes(schema as JsonSchema, root as JsonSchema);
    // (A branch of the union keeps the union's types: `anyOf: [{type: "number"}, {type: "string"}]`.)
    if (types.length > 1 && types.includes("string")) this.rawSiblings = types;
    try {
      return this.valueOf(schema, hint, syntax, root);
    } finally {
      this.rawSiblings = outer;
    }
  }

  private valueOf(schema: unknown, hint: string, syntax: ValueSyntax, root: Schema): string {
    if (schema === true || schema === undefined || (isSchema(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k)))) {
      return this.any(syntax);
    }
    if (!isSchema(schema)) {
      this.relax("false schema", hint);
      return this.any(syntax);
    }
    this.noteRelaxed(schema, hint);
    if (typeof schema.$ref === "string") return this.ref(schema.$ref, hint, syntax, root);
    if ("const" in schema) return this.constant(schema.const, syntax);
    if (Array.isArray(schema.enum)) return alt(schema.enum.map((v) => this.constant(v, syntax)));
    const branches = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
    if (branches !== undefined) return this.union(branches.map((b, i) => this.value(b, `${hint}-${i}`, syntax, root)), schema, syntax);
    if (Array.isArray(schema.allOf)) return this.value(this.mergeAllOf(schema, hint, root), hint, syntax, root);
    const types = Array.isArray(schema.type) ? schema.type : schema.type !== undefined ? [schema.type] : [this.impliedType(schema)];
    return this.union(
      types.map((t) => this.typed(String(t), schema, types.length > 1 ? `${hint}-${String(t)}` : hint, syntax, root)),
      schema,
      syntax,
    );
  }

  /** A member's value; its own captured rule when the syntax asks for it. */
  private member(name: string, schema: unknown, hint: string, syntax: ObjectSyntax, root: Schema): string {
    const value = this.value(schema, hint, syntax.values, root);
    if (syntax.captureMembers !== true) return value;
    return this.builder.capture(this.builder.add(`${hint}-value`, value), { kind: "param", key: name, decode: syntax.values });
  }

  private union(options: string[], schema: Schema, syntax: ValueSyntax): string {
    // OpenAPI's `nullable: true` adds null to whatever the schema allows.
    return alt(schema.nullable === true ? [...options, scalarRule(this.builder, "null", syntax)] : options);
  }

  private impliedType(schema: Schema): string {
    if (isSchema(schema.properties) || schema.additionalProperties !== undefined) return "object";
    if (schema.items !== undefined || schema.prefixItems !== undefined) return "array";
    return "any";
  }

  private typed(type: string, schema: Schema, hint: string, syntax: ValueSyntax, root: Schema): string {
    switch (type) {
      case "string":
        return this.string(schema, hint, syntax);
      case "integer":
        return this.integer(schema, hint, syntax);
      case "number":
        for (const k of RANGE) if (k in schema) this.relax(`${k} (number)`, hint);
        return scalarRule(this.builder, type, syntax);
      case "boolean":
      case "null":
        return scalarRule(this.builder, type, syntax);
      case "object":
        return this.builder.add(hint, this.objectBody(schema, hint, dictSyntax(syntax, this.builder), root));
      case "array":
        return this.builder.add(hint, this.arrayBody(schema, hint, syntax === "raw" ? "json" : syntax, root));
      default:
        for (const k of [...RANGE, "pattern"]) if (k in schema) this.relax(`${k} (no type)`, hint);
        return this.any(syntax);
    }
  }

  /** An integer, within the schema's range if it has one. */
  private integer(schema: Schema, hint: string, syntax: ValueSyntax): string {
    const bounds = integerBounds(schema);
    if (bounds === undefined) return scalarRule(this.builder, "integer", syntax);
    const range = integerRange(bounds.min, bounds.max);
    if (range === undefined) {
      this.relax("minimum/maximum (no integer fits)", hint);
      return scalarRule(this.builder, "integer", syntax);
    }
    const spaced = syntax === "json" || syntax === "python";
    return this.builder.add(`${hint}-int`, spaced ? `${range} ${primitive(this.builder, "space")}` : range);
  }

  private string(schema: Schema, hint: string, syntax: ValueSyntax): string {
    const min = typeof schema.minLength === "number" ? schema.minLength : 0;
    const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
    const bounded = min > 0 || max !== undefined;
    const raw = syntax === "raw" || syntax === "gemma";
    let pattern = typeof schema.pattern === "string" ? this.pattern(schema.pattern, "pattern", hint, syntax) : undefined;
    if (pattern !== undefined && bounded) this.relax("minLength/maxLength (with a pattern)", hint);
    // Raw text has no escapes: a bounded length is a pattern over the characters it can write.
    if (pattern === undefined && bounded && raw) pattern = this.pattern(`^[\\s\\S]{${min},${max ?? ""}}$`, "minLength/maxLength", hint, syntax);
    if (syntax === "raw" && this.rawString !== undefined) {
      if (pattern !== undefined) return this.builder.capture(this.builder.add(`${hint}-pattern`, pattern), { kind: "raw-string" });
      const guard = rawGuard(this.rawSiblings);
      const key = JSON.stringify(guard ?? null);
      let rule = this.rawStringRules.get(key);
      if (rule === undefined) {
        const name = guard === undefined ? "raw-text" : `raw-text-not-${this.rawSiblings.filter((t) => t !== "string").join("-")}`;
        rule = this.builder.capture(this.rawString(guard, name), { kind: "raw-string" });
        this.rawStringRules.set(key, rule);
      }
      return rule;
    }
    const quote = syntax === "gemma" ? lit(this.builder.stringQuote) : syntax === "python" ? `"'"` : '"\\""';
    const space = syntax === "gemma" ? "" : ` ${primitive(this.builder, "space")}`;
    if (pattern !== undefined) return this.builder.add(`${hint}-pattern`, `${quote} ${pattern} ${quote}${space}`);
    if (min === 0 && max === undefined) return scalarRule(this.builder, "string", syntax);
    if (syntax === "gemma") return primitive(this.builder, "gemma-string");
    const encoding = syntax === "python" ? "python" : "json";
    const char = this.builder.add(`${encoding === "json" ? "json" : "py"}-char-any`, anyCharGbnf(encoding, firstChars(this.builder.stringMarkers)));
    return this.builder.add(hint, `${quote} ${char}{${min},${max ?? ""}} ${quote}${space}`);
  }

  /**
   * The inside of a string matching `pattern`, written in `syntax`, or undefined (and the keyword
   * relaxed, with the reason) when GBNF cannot express it there.
   */
  private pattern(pattern: string, keyword: string, hint: string, syntax: ValueSyntax): string | undefined {
    // A raw string in a union is typed by the parser first: its guard and a pattern do not combine.
    if (syntax === "raw" && this.rawSiblings.length > 0) return void this.relax(`${keyword} (raw text in a union)`, hint);
    const raw = syntax === "raw" || syntax === "gemma";
    const forbidden = raw
      ? [...firstChars([...(this.rawMarkers?.() ?? []), ...(syntax === "gemma" ? [this.builder.stringQuote, ...this.builder.textMarkers] : [])]), "\r", "\n"]
      : firstChars(this.builder.stringMarkers);
    const out = regexToGbnf(pattern, raw ? "raw" : syntax === "python" ? "python" : "json", forbidden);
    if ("reason" in out) return void this.relax(`${keyword} (${out.reason})`, hint);
    return out.expr;
  }

  private objectBody(schema: Schema, hint: string, syntax: ObjectSyntax, root: Schema): string {
    const properties = isSchema(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    const members = Object.entries(properties).map(([name, sub]) => ({
      expr: seq(syntax.key(name), this.member(name, sub, `${hint}-${name}`, syntax, root), syntax.afterKey?.(name) ?? syntax.after),
      required: required.has(name),
    }));
    // An object schema that declares no properties (`{"type": "object"}`) is any object, as in JSON Schema.
    const additional = schema.additionalProperties ?? (isSchema(schema.properties) ? undefined : true);
    const extra =
      additional === undefined || additional === false || syntax.anyKey === undefined
        ? undefined
        : seq(syntax.anyKey, this.value(additional, `${hint}-additional`, syntax.values, root), syntax.after);
    const tail = extra === undefined ? "" : `(${seq(syntax.sep, extra)})*`;
    // Which member comes first decides where the separators go: members after it are each preceded
    // by `sep`. The first member can be any of those before (and including) the first required one.
    const firstRequired = members.findIndex((m) => m.required);
    const lastFirst = firstRequired === -1 ? members.length - 1 : firstRequired;
    const restFrom = (k: number): string =>
      seq(...members.slice(k).map((m) => (m.required ? seq(syntax.sep, m.expr) : `(${seq(syntax.sep, m.expr)})?`)), tail);
    const starts: string[] = [];
    for (let k = 0; k <= lastFirst; k++) {
      const rest = lastFirst === 0 ? restFrom(k + 1) : this.builder.add(`${hint}-after-${k}`, restFrom(k + 1) || '""');
      starts.push(seq(members[k]!.expr, rest));
    }
    if (extra !== undefined && firstRequired === -1) starts.push(seq(extra, tail));
    const inner = starts.length === 0 ? "" : firstRequired === -1 ? `(${starts.join(" | ")})?` : alt(starts);
    return seq(syntax.open, inner, syntax.close) || '""';
  }

  private arrayBody(schema: Schema, hint: string, syntax: "json" | "python" | "gemma", root: Schema): string {
    const space = syntax === "gemma" ? "" : primitive(this.builder, "space");
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    if (prefix.length > 0) {
      const items = prefix.map((s, i) => this.value(s, `${hint}-${i}`, syntax, root));
      if (schema.items !== false) this.relax("items after prefixItems", hint);
      return seq(`"[" ${space}`, items.join(` "," ${space} `), `"]" ${space}`);
    }
    const item = this.value(schema.items, `${hint}-item`, syntax, root);
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : undefined;
    const more = `("," ${space} ${item})`;
    let inner: string;
    if (max === 0) inner = "";
    else if (min === 0) inner = `(${item} ${more}${max === undefined ? "*" : `{0,${max - 1}}`})?`;
    else inner = `${item} ${more}{${min - 1},${max === undefined ? "" : max - 1}}`;
    return seq(`"[" ${space}`, inner, `"]" ${space}`);
  }

  private ref(ref: string, hint: string, syntax: ValueSyntax, root: Schema): string {
    const target = this.resolve(ref, root);
    if (target === undefined) {
      this.relax(`$ref ${ref} (not found)`, hint);
      return this.any(syntax);
    }
    let built = this.refs.get(root);
    if (built === undefined) this.refs.set(root, (built = new Map()));
    const key = `${syntax}\u0000${ref}`;
    const known = built.get(key);
    if (known !== undefined) return known;
    // Reserved before building, so a recursive definition refers to itself by name.
    const slot = this.builder.reserve(`def-${ref.slice(ref.lastIndexOf("/") + 1)}${syntax === "json" ? "" : `-${syntax}`}`);
    built.set(key, slot.name);
    slot.define(this.value(target, slot.name, syntax, root));
    return slot.name;
  }

  private mergeAllOf(schema: Schema, hint: string, root: Schema): Schema {
    const { allOf, ...rest } = schema;
    const merged: Schema = { ...rest };
    for (const part of allOf as unknown[]) {
      const sub = isSchema(part) && typeof part.$ref === "string" ? this.resolve(part.$ref, root) : part;
      if (!isSchema(sub)) continue;
      if (isSchema(sub.properties)) merged.properties = { ...(merged.properties as Schema | undefined), ...sub.properties };
      if (Array.isArray(sub.required)) merged.required = [...((merged.required as unknown[]) ?? []), ...sub.required];
      for (const [k, v] of Object.entries(sub)) if (!(k in merged)) merged[k] = v;
    }
    if (merged.type === undefined && merged.properties !== undefined) merged.type = "object";
    this.relax("allOf (merged)", hint);
    return merged;
  }

  /** The definition a local `$ref` (`#/$defs/x`, `#/definitions/x`) points to, if any. */
  private resolve(ref: string, root: Schema): unknown {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const defs = match ? root[match[1] as string] : undefined;
    if (!match || !isSchema(defs)) return undefined;
    // JSON Pointer escapes: ~1 is "/", ~0 is "~".
    return defs[decodeURIComponent(match[2] as string).replace(/~1/g, "/").replace(/~0/g, "~")];
  }

  private constant(value: unknown, syntax: ValueSyntax): string {
    const space = primitive(this.builder, "space");
    if (syntax === "raw") {
      // A string constant reads back as the text itself, like any raw string.
      if (typeof value === "string") return this.builder.capture(this.builder.add("raw-const", lit(value)), { kind: "raw-string" });
      return lit(dumpJson(value, PY_JSON));
    }
    if (syntax === "gemma") return lit(gemmaRepr(value, this.builder.stringQuote));
    if (syntax === "python") {
      // Python accepts either quote style for strings; other literals have one spelling.
      if (typeof value === "string") return `${alt([lit(pyRepr(value)), lit(dumpJson(value, PY_JSON))])} ${space}`;
      return `${lit(pyRepr(value))} ${space}`;
    }
    return `${lit(dumpJson(value, PY_JSON))} ${space}`;
  }

  private any(syntax: ValueSyntax): string {
    return anyValueRule(this.builder, syntax);
  }

  private noteRelaxed(schema: Schema, hint: string): void {
    for (const key of Object.keys(schema)) if (!HANDLED.has(key) && !ANNOTATIONS.has(key)) this.relax(key, hint);
  }

  private relax(what: string, hint: string): void {
    const note = `${what} at ${hint}`;
    if (!this.relaxed.includes(note)) this.relaxed.push(note);
  }
}

/** What a raw string may not look like when the parser tries `types` first (see TextGuard). */
function rawGuard(types: readonly ValueType[]): TextGuard | undefined {
  if (types.length < 2 || !types.includes("string")) return undefined;
  const words: { text: string; caseless: boolean }[] = [];
  let firstNot = "";
  if (types.includes("null")) words.push({ text: "null", caseless: false }, { text: "None", caseless: false });
  if (types.includes("boolean")) words.push({ text: "true", caseless: true }, { text: "false", caseless: true });
  if (types.includes("integer") || types.includes("number")) firstNot += "0123456789+-.";
  if (types.includes("object")) firstNot += "{";
  if (types.includes("array")) firstNot += "[(";
  return { words, firstNot };
}

/** A nested object value: a JSON object, or a Python dict with either quote style for keys. */
function dictSyntax(syntax: ValueSyntax, builder: GbnfBuilder): ObjectSyntax {
  if (syntax === "gemma") return gemmaDict(builder);
  const space = primitive(builder, "space");
  const python = syntax === "python";
  return {
    open: `"{" ${space}`,
    close: `"}" ${space}`,
    key: (name) => `${python ? alt([lit(pyRepr(name)), lit(JSON.stringify(name))]) : lit(JSON.stringify(name))} ${space} ":" ${space}`,
    after: "",
    sep: `"," ${space}`,
    anyKey: `${primitive(builder, python ? "py-string" : "json-string")} ":" ${space}`,
    values: python ? "python" : "json",
  };
}

/** Gemma's argument object: `{key:value,...}`, keys bare, no spaces. */
export function gemmaDict(builder: GbnfBuilder): ObjectSyntax {
  return {
    open: '"{"',
    close: '"}"',
    key: (name) => lit(`${name}:`),
    after: "",
    sep: '","',
    anyKey: `${primitive(builder, "gemma-key")} ":"`,
    values: "gemma",
  };
}

/** A JSON value in Gemma's syntax: `<|"|>x<|"|>`, `true`, `null`, `[1,2]`, `{k:<|"|>v<|"|>}` (`quote`: the string quote token). */
export function gemmaRepr(value: unknown, quote: string): string {
  if (typeof value === "string") return `${quote}${value}${quote}`;
  if (Array.isArray(value)) return `[${value.map((v) => gemmaRepr(v, quote)).join(",")}]`;
  if (isSchema(value)) return `{${Object.entries(value).map(([k, v]) => `${k}:${gemmaRepr(v, quote)}`).join(",")}}`;
  return dumpJson(value, PY_JSON);
}

/** Python's repr of a JSON value: `'x'`, `True`, `None`, `[1, 2]`, `{'k': 'v'}`. */
export function pyRepr(value: unknown): string {
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isSchema(value)) return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  return dumpJson(value, PY_JSON);
}

/** The first character of each marker. */
function firstChars(markers: readonly string[]): string[] {
  return [...new Set(markers.filter((m) => m !== "").map((m) => String.fromCodePoint(m.codePointAt(0)!)))];
}

/** A GBNF sequence of the non-empty parts. */
export function seq(...parts: string[]): string {
  return parts.filter((p) => p !== "").join(" ");
}
