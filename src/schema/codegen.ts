/**
 * The fast validator: ajv, which compiles each schema to JavaScript source (`new Function`). Used
 * wherever code generation is allowed. Patterns go through compilePattern (linear time); enums and
 * `required` lists are checked in a loop rather than unrolled into code, so their compile time is
 * linear in their size. `addUsedSchema: false` plus removeSchema keep ajv's own caches from growing
 * with every schema seen (our bounded cache holds the validators).
 */
import { metaSchemaProblem } from "./meta-message.js";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { DRAFT7_META } from "./meta.js";
import { compilePattern } from "./patterns.js";
import { SchemaProblem } from "./problem.js";
import { describeErrors, type SchemaErrorDetail, type ValueValidator } from "./types.js";
import { forEachSubschema } from "./walk.js";

// ajv keys the compiled pattern by its toString(), so each tester must print as its own pattern.
const regExp = Object.assign(
  (pattern: string) => {
    const tester = compilePattern(pattern);
    return { test: (input: string) => tester.test(input), toString: () => `/${pattern}/u` };
  },
  { code: "compilePattern" },
);

let instance: { ajv: Ajv; meta: ValidateFunction } | undefined;
let compiles = 0;
let compiledInAll = 0;
/** How many schemas ajv has compiled in this process (tests: rendering must compile none). */
export function ajvCompileCount(): number {
  return compiledInAll;
}
/**
 * ajv keeps every compiled function's names and values in one scope per instance, which grows with
 * each schema however our cache evicts; a fresh instance every so many compiles lets old ones go
 * (validators already made keep working: each holds what it needs).
 */
const COMPILES_PER_INSTANCE = 256;

function engine(): { ajv: Ajv; meta: ValidateFunction } {
  if (instance === undefined || compiles >= COMPILES_PER_INSTANCE) {
    compiles = 0;
    const ajv = new Ajv({
      strict: false, // real tool schemas carry vendor keywords
      allErrors: true, // list every problem at once
      validateFormats: false,
      validateSchema: false, // checked against DRAFT7_META below, with our messages
      addUsedSchema: false,
      loopEnum: 16,
      loopRequired: 16,
      code: { regExp },
    });
    instance = { ajv, meta: ajv.compile(DRAFT7_META) };
  }
  return instance;
}

function detailsOf(errors: ErrorObject[] | null | undefined): SchemaErrorDetail[] {
  return (errors ?? []).map((e) => ({ instancePath: e.instancePath, schemaPath: e.schemaPath, keyword: e.keyword, message: e.message ?? e.keyword }));
}

/**
 * What ajv would refuse, found without compiling (issue 19: compiling every new schema to JavaScript
 * when the request is read was most of a share-nothing render, which needs no validator): the
 * meta-schema, and every pattern and patternProperties key compiled as ajv's regExp hook would. Throws
 * SchemaProblem. Callers compile at once, instead, a schema this check cannot vouch for (one with a
 * `$ref`, which only resolving can judge).
 */
export function checkForAjv(schema: Record<string, unknown>): void {
  const { meta } = engine();
  if (!meta(schema)) {
    const errs = detailsOf(meta.errors);
    throw metaSchemaProblem(schema, errs);
  }
  forEachSubschema(schema, (node) => {
    if (typeof node.pattern === "string") compilePattern(node.pattern);
    const keyed = node.patternProperties;
    if (typeof keyed === "object" && keyed !== null) for (const key of Object.keys(keyed)) compilePattern(key);
  });
}

/**
 * Compiles `schema` (already within limits, root `$schema` removed) or throws SchemaProblem.
 * `checked`: checkForAjv already passed on this very schema (the lazy path), so it is not run again.
 */
export function compileWithAjv(schema: Record<string, unknown>, checked = false): ValueValidator {
  const { ajv } = engine();
  if (!checked) checkForAjv(schema);
  let fn: ValidateFunction;
  compiles++;
  compiledInAll++;
  try {
    fn = ajv.compile(schema);
  } catch (err) {
    if (err instanceof SchemaProblem) throw err;
    throw new SchemaProblem(`cannot be compiled: ${(err as Error).message}`);
  } finally {
    ajv.removeSchema(schema);
  }
  return (value) => {
    if (fn(value)) return { ok: true };
    const details = detailsOf(fn.errors);
    return { ok: false, message: describeErrors(details), details };
  };
}
