/**
 * Validation of a `response_template` as transformers' loader does it (utils/chat_parsing/
 * response_templates.py, `load_response_template`): the same keys are known, the same combinations
 * refused, in the same order, so a config transformers refuses is refused here too, with the path of
 * the offending key. Regex syntax is not checked here (Python's `regex` module is not JavaScript's):
 * compile.ts refuses what it cannot read.
 */
import { ChatwireError } from "../errors.js";
import { CONTENT_PARSERS, type LiteralAnchor, type ResponseTemplate, type ResponseTemplateField } from "./types.js";
import { namedGroups } from "./python-regex.js";

const TEMPLATE_KEYS = new Set(["version", "defaults", "fields", "start_anchor", "start_anchor_pattern"]);
const FIELD_KEYS = new Set(["open", "open_pattern", "close", "close_pattern", "content", "content_args", "repeats", "join", "optional", "transform", "transform_each"]);

/** transformers' placeholder: `{name}` or `{name.key.key}`, a whole string or nothing. */
const PLACEHOLDER = /\{([\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*)\}/u;

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Python truthiness, which is how transformers reads `repeats` and `optional`. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

function refuse(origin: string, path: string, message: string): never {
  throw new ChatwireError("invalid_template", `${origin}: ${path}: ${message}`, { field: path });
}

function anchor(origin: string, path: string, field: Json, literalKey: string, patternKey: string): { literal?: LiteralAnchor; pattern?: string } {
  const hasLiteral = field[literalKey] !== undefined;
  const hasPattern = field[patternKey] !== undefined;
  if (hasLiteral && hasPattern) refuse(origin, path, `cannot specify both '${literalKey}' and '${patternKey}'`);
  if (hasLiteral) {
    const raw = field[literalKey];
    const at = `${path}.${literalKey}`;
    let literals: string[];
    if (typeof raw === "string") literals = [raw];
    else if (Array.isArray(raw)) {
      if (raw.length === 0) refuse(origin, at, "the list must contain at least one literal");
      if (!raw.every((s) => typeof s === "string")) refuse(origin, at, "the list must contain only strings");
      literals = [...new Set(raw as string[])];
    } else refuse(origin, at, `must be a string or a list of strings, got ${raw === null ? "null" : typeof raw}`);
    if (literals.some((s) => s === "")) refuse(origin, at, "literals cannot be empty strings");
    return { literal: typeof raw === "string" ? raw : literals };
  }
  if (hasPattern) {
    const raw = field[patternKey];
    if (typeof raw !== "string") refuse(origin, `${path}.${patternKey}`, "must be a regex string");
    return { pattern: raw };
  }
  return {};
}

/** Refuses a transform string that mixes a placeholder with literal text (transformers does no interpolation). */
function checkTransform(origin: string, path: string, transform: unknown): void {
  if (Array.isArray(transform)) transform.forEach((v, i) => checkTransform(origin, `${path}[${i}]`, v));
  else if (isRecord(transform)) for (const [k, v] of Object.entries(transform)) checkTransform(origin, `${path}.${k}`, v);
  else if (typeof transform === "string" && PLACEHOLDER.test(transform) && !new RegExp(`^${PLACEHOLDER.source}$`, "u").test(transform)) {
    refuse(origin, path, `transform string ${JSON.stringify(transform)} mixes a {placeholder} with literal text; use a whole-string placeholder or a plain literal`);
  }
}

function buildField(origin: string, name: string, raw: unknown): ResponseTemplateField {
  const path = `response_template.fields.${name}`;
  if (!isRecord(raw)) refuse(origin, path, "must be an object");
  const unknown = Object.keys(raw).filter((k) => !FIELD_KEYS.has(k)).sort();
  if (unknown.length > 0) refuse(origin, path, `unknown keys ${JSON.stringify(unknown)}`);
  const content = raw.content === undefined ? "text" : raw.content;
  if (typeof content !== "string" || !(CONTENT_PARSERS as readonly string[]).includes(content)) {
    refuse(origin, `${path}.content`, `unknown content parser ${JSON.stringify(content)} (available: ${[...CONTENT_PARSERS].sort().join(", ")})`);
  }
  const open = anchor(origin, path, raw, "open", "open_pattern");
  const close = anchor(origin, path, raw, "close", "close_pattern");
  const { join, transform } = raw;
  if (join !== undefined && join !== null && typeof join !== "string") refuse(origin, `${path}.join`, `must be a string, got ${typeof join}`);
  if (typeof join === "string" && !truthy(raw.repeats)) refuse(origin, `${path}.join`, "'join' requires 'repeats': true");
  const each = raw.transform_each === undefined ? false : raw.transform_each;
  if (typeof each !== "boolean") refuse(origin, `${path}.transform_each`, `must be a bool, got ${typeof each}`);
  if (each && (transform === undefined || transform === null)) refuse(origin, `${path}.transform_each`, "is set but no transform was provided");
  if (transform !== undefined && transform !== null) checkTransform(origin, `${path}.transform`, transform);
  else {
    const groups = [...namedGroups(open.pattern ?? ""), ...namedGroups(close.pattern ?? "")];
    if (groups.length > 0) {
      refuse(origin, path, `open_pattern/close_pattern declares named group(s) ${JSON.stringify([...new Set(groups)].sort())} but the field has no 'transform' (captures reach the output only through one)`);
    }
  }
  if (raw.content_args !== undefined && !isRecord(raw.content_args)) refuse(origin, `${path}.content_args`, "must be an object");
  // Kept as written (the config's own words, for reports and export); readers apply the defaults.
  return raw as ResponseTemplateField;
}

/**
 * A validated response template, or a ChatwireError `invalid_template` whose `field` is the path of
 * what is wrong (`response_template.fields.tool_calls.join`). `origin` prefixes the message.
 */
export function validateResponseTemplate(spec: unknown, origin: string): ResponseTemplate {
  if (!isRecord(spec)) refuse(origin, "response_template", `must be an object, got ${Array.isArray(spec) ? "a list" : spec === null ? "null" : typeof spec}`);
  // Read as Python's dict.get(key, default): a key present with null is null, not the default.
  const version = spec.version === undefined ? 1 : spec.version;
  if (version !== 1) refuse(origin, "response_template.version", `unsupported version ${JSON.stringify(version)} (transformers reads version 1)`);
  const unknown = Object.keys(spec).filter((k) => !TEMPLATE_KEYS.has(k)).sort();
  if (unknown.length > 0) refuse(origin, "response_template", `unknown keys ${JSON.stringify(unknown)}`);
  const defaults = spec.defaults === undefined ? {} : spec.defaults;
  if (!isRecord(defaults)) refuse(origin, "response_template.defaults", "must be an object");
  const rawFields = spec.fields === undefined ? {} : spec.fields;
  if (!isRecord(rawFields) || Object.keys(rawFields).length === 0) refuse(origin, "response_template.fields", "must be a non-empty object");
  const fields: Record<string, ResponseTemplateField> = {};
  for (const [name, raw] of Object.entries(rawFields)) {
    Object.defineProperty(fields, name, { value: buildField(origin, name, raw), enumerable: true });
  }

  const implicit = Object.entries(fields).filter(([, f]) => f.open === undefined && f.open_pattern === undefined).map(([n]) => n);
  if (implicit.length > 1) {
    refuse(origin, "response_template.fields", `at most one field may omit 'open'/'open_pattern' (the implicit field); found ${implicit.join(", ")}`);
  }
  const start = anchor(origin, "response_template", spec, "start_anchor", "start_anchor_pattern");
  if (start.literal === undefined && start.pattern === undefined) refuse(origin, "response_template", "must define 'start_anchor' or 'start_anchor_pattern'");
  return spec as unknown as ResponseTemplate;
}

/** The implicit field's name (the one without an open anchor), if any. */
export function implicitField(template: ResponseTemplate): string | undefined {
  return Object.entries(template.fields).find(([, f]) => f.open === undefined && f.open_pattern === undefined)?.[0];
}
