/**
 * Tool schemas: each `parameters` schema is checked when the request is normalised (so a schema that
 * cannot be compiled is an error naming its field in render, parse and serve alike, never a validator
 * that accepts everything), and compiled into a validator only when a call to that tool has to be
 * validated (rendering needs none: compiling every new schema to JavaScript was most of the cost of a
 * request that shares nothing with earlier ones, issue 19). The check costs about what reading the
 * schema costs: one walk for the limits and the meta-schema's rules, then every pattern. A schema the
 * check cannot vouch for (a `$ref`, which only resolving can judge; the interpreting engine's rewrite)
 * is compiled at once, as before. Results are kept by object identity (a deeply frozen schema at once,
 * with no JSON text made, or with its deeply frozen tool list's result; any other from its second
 * sighting, checked against a record) and by the
 * schema's JSON text in two bounded caches (small schemas, and a few large ones) so a server that
 * sees endless distinct schemas keeps bounded memory.
 */
import { BoundedCache } from "../bounded-cache.js";
import { ChatwireError, invalidRequest } from "../errors.js";
import { matchesRecord, recordValue } from "../jinja/json-snapshot.js";
import { PyFloat } from "../jinja/py-float.js";
import { isDeepFrozen } from "../jinja/tojson.js";
import { canonicalTypeNames } from "./aliases.js";
import { checkForAjv, compileWithAjv } from "./codegen.js";
import { schemaEngine } from "./engine.js";
import { compileInterpreted } from "./interpret.js";
import { checkLimits, SCHEMA_LIMITS } from "./limits.js";
import { compilePattern } from "./patterns.js";
import { surveySchema, type SurveyFacts } from "./survey.js";
import { isSchemaObject } from "./walk.js";
import { fieldOfPointer } from "../request/locate.js";
import { SchemaProblem } from "./problem.js";
import type { ValueValidator } from "./types.js";

export type { Validation, ValueValidator, SchemaErrorDetail } from "./types.js";
export { SCHEMA_LIMITS } from "./limits.js";
export { NATIVE_INPUT_LIMIT } from "./patterns.js";
export { forceSchemaEngine, schemaEngine, type SchemaEngine } from "./engine.js";

const LARGE = 64 * 1024;

/**
 * A schema that passed the request-time check. Its validator is built on first use; a build that
 * fails all the same (the check missed something ajv refuses) gives a validator that rejects every
 * value with the reason, so a call is never accepted unchecked.
 */
class CheckedSchema {
  private built: ValueValidator | undefined;
  constructor(private readonly build: () => ValueValidator) {}
  get validator(): ValueValidator {
    if (this.built === undefined) {
      try {
        this.built = this.build();
      } catch (err) {
        const message = `the tool's schema cannot be compiled: ${err instanceof Error ? err.message : String(err)}`;
        this.built = () => ({ ok: false, message, details: [{ instancePath: "", schemaPath: "#", keyword: "$schema", message }] });
      }
    }
    return this.built;
  }
}

type Checked = CheckedSchema | SchemaProblem;

/**
 * The checked schemas by JSON text, bounded by entries and by what an entry holds: its key, the check,
 * and once a call was validated the compiled validator. Measured as heap after GC for 200 distinct
 * 190-character schemas, each compiled and used: 10.4 KB an entry (ajv's generated code and scope),
 * so an entry is taken to weigh 8 KB plus 16 bytes a character of its text. Large schemas have their
 * own few places so that they cannot push out hundreds of small ones.
 */
const SCHEMA_ENTRY_BYTES = 8192;
const SCHEMA_BYTES_PER_CHAR = 16;
const weighSchema = (key: string): number => SCHEMA_ENTRY_BYTES + SCHEMA_BYTES_PER_CHAR * key.length;
const small = new BoundedCache<string, Checked>(1024, 16 << 20, weighSchema);
const large = new BoundedCache<string, Checked>(8, 32 << 20, weighSchema);

/** The draft-07 body of a schema read from its JSON text: root `$schema` dropped, alias type names rewritten. */
function bodyOf(text: string): Record<string, unknown> {
  const { $schema: _dialect, ...body } = JSON.parse(text) as Record<string, unknown>;
  canonicalTypeNames(body);
  return body;
}

/**
 * `schema` (the caller's, read-only) checked as ajv will take it, its JSON text `text`. The fast way,
 * for a plain-data schema within the limits that needs no rewrite and that the meta-schema takes (one
 * walk, surveySchema): its patterns compiled, the validator built from the text when first needed.
 * Anything else takes the full way, on a copy read from the text, which words every error.
 */
function check(text: string, schema: unknown): Checked {
  try {
    if (schemaEngine() === "codegen" && !text.includes('"$ref"') && text.length <= SCHEMA_LIMITS.maxChars && isSchemaObject(schema)) {
      const patterns = surveySchema(schema);
      if (patterns !== undefined && patterns.every(patternCompiles)) return new CheckedSchema(() => compileWithAjv(bodyOf(text), true));
    }
  } catch {
    // the full way below decides, and words the error
  }
  return checkFully(text);
}

/**
 * A deeply frozen schema (readSharedJson's: it cannot change, so it is kept by identity alone) checked
 * without its JSON text: the survey sees that all of it is frozen, bounds the text's length and sees
 * whether it has a `$ref`, so the text is made only for the validator, when a call needs one. Stringifying every new
 * schema to key a cache by it was the check's largest cost for requests that share nothing (issue 19),
 * and such a request's frozen schema finds nothing by its text anyway: the same text read again is
 * the same frozen value. Undefined when the text-based check must decide (and word the error).
 * (A schema of a deeply frozen list has the same survey in toolSchemaProblem, with nothing made.)
 */
function checkFrozen(schema: unknown): Checked | undefined {
  return surveyPasses(schema, false) ? new CheckedSchema(() => compileWithAjv(bodyOf(schemaText(schema)), true)) : undefined;
}

/** What surveySchema learns, filled in afresh by each survey (one object for all: nothing is kept from it). */
const FACTS: SurveyFacts = { textBound: 0, mentionsRef: false, frozen: false };

/**
 * The survey alone vouches for this schema (false: the text-based check decides): the text-based check
 * would pass it without its full path. `deepFrozen`: the caller knows it is deeply frozen (a part of a
 * list it found so), so the survey need not ask each container; `frozen`: it must be frozen all
 * through (false for a caller's schema checked once, kept nowhere: PASSED); `plain`: it was read from
 * JSON text (surveySchema's `plain`).
 */
function surveyPasses(schema: unknown, deepFrozen: boolean, frozen = true, plain = false): boolean {
  if (schemaEngine() !== "codegen" || !isSchemaObject(schema)) return false;
  try {
    const patterns = surveySchema(schema, FACTS, deepFrozen, plain);
    return patterns !== undefined && (FACTS.frozen || !frozen) && !FACTS.mentionsRef && FACTS.textBound <= SCHEMA_LIMITS.maxChars && (patterns.length === 0 || patterns.every(patternCompiles));
  } catch {
    return false; // the text-based check decides
  }
}

/**
 * What toolSchemaProblem is told of a schema that is not frozen and that no earlier check knows: the
 * survey (the walk the text-based check makes first anyway) passed it, so the text-based check would
 * pass it too. It is kept nowhere: the object may change before it is met again, and a new object
 * each request (a caller's JSON.parse of every body, its tools new) would only fill the caches with
 * what is never met again; stringifying the schema to key the text cache, the cache's insertion and
 * the identity entry were two thirds of checking such a request's 21 schemas (issue 19). A schema
 * the survey cannot vouch for takes the text-based check, as before.
 */
const PASSED: Checked = new CheckedSchema(() => {
  throw new Error("no validator is built for a check alone");
});

function checkFully(text: string): Checked {
  try {
    const schema = JSON.parse(text) as unknown;
    checkLimits(schema, text);
    if (typeof schema !== "object" || schema === null || Array.isArray(schema)) throw new SchemaProblem("must be a JSON Schema object");
    // The dialect is always draft-07: a root `$schema` naming another one is not fetched or honoured.
    const { $schema: _dialect, ...body } = schema as Record<string, unknown>;
    canonicalTypeNames(body);
    if (schemaEngine() === "interpret") {
      const validator = compileInterpreted(body);
      return new CheckedSchema(() => validator);
    }
    if (text.includes('"$ref"')) {
      const validator = compileWithAjv(body);
      return new CheckedSchema(() => validator);
    }
    checkForAjv(body);
    return new CheckedSchema(() => compileWithAjv(body, true));
  } catch (err) {
    if (err instanceof SchemaProblem) return err;
    return new SchemaProblem(`cannot be compiled: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function patternCompiles(pattern: string): boolean {
  try {
    compilePattern(pattern);
    return true;
  } catch {
    return false;
  }
}

// JSON read by chatwire keeps integral floats as PyFloat (so templates print `1.0`); to a schema they are numbers.
const plainNumbers = (_key: string, value: unknown): unknown => (value instanceof PyFloat ? value.value : value);

/**
 * A schema's JSON text, PyFloat printed as its number. Native JSON.stringify first: without the
 * replacer (which costs a call per value) a PyFloat prints as `{"value":1}`, so only text holding that
 * is made again with it (a schema that itself has such an object pays twice, and gets the same text).
 */
function schemaText(schema: unknown): string {
  const text = JSON.stringify(schema);
  return text.includes('{"value":') ? JSON.stringify(schema, plainNumbers) : text;
}

/**
 * The compiled result last found for a schema object, trusted again only when the object cannot have
 * changed: deeply frozen (readSharedJson's values), or equal to the record taken then (the same walk
 * tojson's reuse makes). Every render normalises the request and so checks every tool's schema:
 * stringifying each one to find it in the text-keyed cache was most of a render's time. The record of
 * an object that is not frozen is taken the second time it is seen (its text compared then): a caller
 * who builds new objects for every request pays no walk for a reuse that cannot come.
 */
const FROZEN: readonly unknown[] = [];
const byObject = new WeakMap<object, { record: readonly unknown[] | undefined; text: string | undefined; engine: string; result: Checked }>();

/**
 * `inFrozenList`: the schema is part of a deeply frozen tool list whose normalised result the caller
 * keeps by identity (normalizeTools), and toolSchemaProblem surveyed it already: one the survey
 * vouches for never comes here, and is not kept here as well:
 * a WeakMap entry for a new object cost about what surveying the schema again costs (1.5 µs, measured
 * on a request that shares nothing, whose 21 entries were a third of checking its schemas), and such
 * an object meets this cache again only in another list. toolValidator keeps its own entry (the
 * validator it builds is worth keeping).
 */
function checked(schema: unknown, inFrozenList: boolean, checkOnly: boolean): Checked {
  const engine = schemaEngine();
  const isObj = schema !== null && typeof schema === "object";
  const hit = isObj ? byObject.get(schema) : undefined;
  if (hit !== undefined && hit.engine === engine && (hit.record === FROZEN || (hit.record !== undefined && matchesRecord(schema, hit.record)))) return hit.result;
  // Frozen at the root (a caller's objects hardly ever are): the survey sees whether all of it is.
  // One in a frozen list was surveyed already (toolSchemaProblem).
  if (isObj && !inFrozenList && Object.isFrozen(schema)) {
    const result = checkFrozen(schema);
    if (result !== undefined) {
      byObject.set(schema, { record: FROZEN, text: undefined, engine, result });
      return result;
    }
  } else if (isObj && checkOnly && hit === undefined && surveyPasses(schema, false, false)) return PASSED;
  const text = schemaText(schema);
  const cache = text.length > LARGE ? large : small;
  // The engine is part of the key only in tests that force one; normally it never changes.
  const result = cache.get(`${engine}\u0000${text}`, () => check(text, schema));
  if (isObj) {
    const frozen = inFrozenList || isDeepFrozen(schema);
    // Not frozen: recorded when seen again unchanged (the same text), not the first time.
    const record = frozen ? FROZEN : hit !== undefined && hit.text === text ? recordValue(schema) : undefined;
    byObject.set(schema, { record, text, engine, result });
  }
  return result;
}

/**
 * The request error for a schema that cannot be used. Its `field` goes on to the wrong place inside
 * the schema when there is one (`tools[0].function.parameters.properties.x.type`: the server's
 * `param`, and where the CLI points in the file); the message names the schema's field and the pointer.
 */
function errorFor(problem: SchemaProblem, schema: unknown, field: string): ChatwireError {
  if (problem.kind === "limit") return new ChatwireError("limit_exceeded", `${field}: ${problem.message}`, { field });
  if (problem.pointer === undefined) return invalidRequest(field, problem.message);
  return new ChatwireError("invalid_request", `${field}: ${problem.message}`, { field: `${field}${fieldOfPointer(schema, problem.pointer)}` });
}

/**
 * Why `schema` cannot be used to validate arguments, or undefined when it can (toolSchemaError words
 * the problem for the request's field, made only then). `inFrozenList`: the schema is part of a deeply
 * frozen list (isDeepFrozen said so) whose result the caller keeps, so one the survey alone vouches
 * for gets nothing made or kept here (a request that shares nothing made a checked result and its
 * closure per tool only to drop it); a validator, once a call needs one, is toolValidator's. `plain`:
 * that list was read from JSON text (json-made.ts), so every object in the schema is plain data.
 */
export function toolSchemaProblem(schema: unknown, inFrozenList = false, plain = false): SchemaProblem | undefined {
  if (inFrozenList && surveyPasses(schema, true, true, plain)) return undefined;
  const result = checked(schema, inFrozenList, true);
  return result instanceof SchemaProblem ? result : undefined;
}

/** The request error for toolSchemaProblem's `problem` with `schema`, named by the schema's `field` (`tools[2].function.parameters`). */
export function toolSchemaError(problem: SchemaProblem, schema: unknown, field: string): ChatwireError {
  return errorFor(problem, schema, field);
}

/** The validator for `schema` (compiled now if it was not yet); throws toolSchemaError's error (with `field`) when there cannot be one. */
export function toolValidator(schema: unknown, field: string): ValueValidator {
  const result = checked(schema, false, false);
  if (result instanceof SchemaProblem) throw errorFor(result, schema, field);
  return result.validator;
}
