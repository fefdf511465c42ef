/**
 * The validator for places where code generation is forbidden (a page whose Content-Security-Policy
 * has no 'unsafe-eval', some edge runtimes): @cfworker/json-schema, which walks the schema instead of
 * compiling it. It gets the same checks before use as the ajv path (meta-schema, every `$ref`
 * resolvable, every pattern compilable) and the same semantics where they differ by default:
 * draft-07, `format` not validated, `pattern` matched in linear time. For the last one, each `pattern`
 * is rewritten into a `format` whose checker is the RE2 tester (cfworker itself would use `new
 * RegExp`); `patternProperties` keys cfworker matches natively, so those must pass backtrackingHazard.
 */
import { metaSchemaProblem } from "./meta-message.js";
import { Validator, dereference, format as formats, type OutputUnit } from "@cfworker/json-schema";
import { DRAFT7_META } from "./meta.js";
import { backtrackingHazard, compilePattern, type PatternTester } from "./patterns.js";
import { SchemaProblem } from "./problem.js";
import { describeErrors, type SchemaErrorDetail, type ValueValidator } from "./types.js";
import { forEachSubschema } from "./walk.js";

const PATTERN_FORMAT = "chatwire-pattern:";
/** How many pattern formats may sit in cfworker's (global) format table before it is swept. */
const MAX_REGISTERED = 2048;
let registered = 0;

let metaValidator: Validator | undefined;

function register(patterns: Map<string, PatternTester>): void {
  if (registered + patterns.size > MAX_REGISTERED) {
    for (const key of Object.keys(formats)) if (key.startsWith(PATTERN_FORMAT)) delete formats[key];
    registered = 0;
  }
  for (const [key, tester] of patterns) {
    if (formats[key] === undefined) registered++;
    formats[key] = (s: string) => tester.test(s);
  }
}

function detailsOf(errors: OutputUnit[], patternOf: Map<string, string>): SchemaErrorDetail[] {
  // cfworker reports each failing subschema and then its causes; keep the causes (leaf keywords).
  const leaves = errors.filter((e) => !/subschemas?( had errors)?\.$|(additional properties|associated) schema\.$|does not match schema\.$/.test(e.error));
  return (leaves.length > 0 ? leaves : errors).map((e) => {
    const instancePath = e.instanceLocation.replace(/^#/, "");
    const formatKey = /String does not match format "([^]*)"\.$/.exec(e.error)?.[1];
    const pattern = formatKey === undefined ? undefined : patternOf.get(formatKey);
    if (pattern !== undefined) {
      return { instancePath, schemaPath: e.keywordLocation.replace(/\/allOf\/\d+\/format$/, "/pattern"), keyword: "pattern", message: `must match pattern "${pattern}"` };
    }
    return { instancePath, schemaPath: e.keywordLocation, keyword: e.keyword, message: e.error };
  });
}

/** Same contract as compileWithAjv. `schema` is not modified (a copy is rewritten). */
export function compileInterpreted(schema: Record<string, unknown>): ValueValidator {
  // Without `format`: patterns are checked by compilePattern below, with a clearer message.
  metaValidator ??= new Validator(JSON.parse(JSON.stringify(DRAFT7_META).replaceAll(',"format":"regex"', "")) as Record<string, unknown>, "7", false);
  const meta = metaValidator.validate(schema);
  if (!meta.valid) {
    const errs = detailsOf(meta.errors, new Map());
    throw metaSchemaProblem(schema, errs);
  }
  const copy = structuredClone(schema);
  const patterns = new Map<string, PatternTester>();
  const patternOf = new Map<string, string>();
  forEachSubschema(copy, (node) => {
    // As with ajv's validateFormats: false (our own pattern formats, added below, stay).
    if (typeof node.format !== "string" || !node.format.startsWith(PATTERN_FORMAT)) delete node.format;
    const pattern = node.pattern;
    if (typeof node.patternProperties === "object" && node.patternProperties !== null) {
      for (const key of Object.keys(node.patternProperties)) {
        compilePattern(key); // same syntax rules as everywhere
        const hazard = backtrackingHazard(key);
        if (hazard !== undefined) throw new SchemaProblem(`patternProperties key ${JSON.stringify(key)} ${hazard}; without code generation it would run on a backtracking engine`);
      }
    }
    if (typeof pattern !== "string") return;
    const key = PATTERN_FORMAT + pattern;
    patterns.set(key, compilePattern(pattern));
    patternOf.set(key, pattern);
    delete node.pattern;
    node.allOf = [...(Array.isArray(node.allOf) ? node.allOf : []), { format: key }];
  });
  const lookup = dereference(copy as never);
  forEachSubschema(copy, (node) => {
    if (typeof node.$ref !== "string") return;
    const uri = (node as { __absolute_ref__?: string }).__absolute_ref__ ?? node.$ref;
    if (lookup[uri] === undefined) throw new SchemaProblem(`cannot be compiled: can't resolve reference ${node.$ref}`);
  });
  const validator = new Validator(copy as never, "7", false);
  return (value) => {
    register(patterns);
    const result = validator.validate(value);
    if (result.valid) return { ok: true };
    const details = detailsOf(result.errors, patternOf);
    return { ok: false, message: describeErrors(details), details };
  };
}
