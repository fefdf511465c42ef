/**
 * The request-time schema check's survey walk (src/schema/survey.ts): it must find the patterns the
 * full check compiles (subschemas only, the same keywords as forEachSubschema) and send to the full
 * path every schema it cannot vouch for, so that errors are worded as before.
 */
import { describe, expect, it } from "vitest";
import { PyFloat } from "../src/jinja/py-float.js";
import { surveySchema } from "../src/schema/survey.js";
import { forEachSubschema } from "../src/schema/walk.js";

/** The patterns the full path compiles (checkForAjv's walk), in any order. */
function fullPatterns(schema: object): string[] {
  const out: string[] = [];
  forEachSubschema(schema, (node) => {
    if (typeof node.pattern === "string") out.push(node.pattern);
    const keyed = node.patternProperties;
    if (typeof keyed === "object" && keyed !== null) out.push(...Object.keys(keyed));
  });
  return out.sort();
}

describe("surveySchema", () => {
  it("lists the patterns of subschemas, never those in data", () => {
    const schema = {
      type: "object",
      properties: {
        pattern: { type: "string", pattern: "^p" }, // a property named `pattern`: its schema's pattern counts
        list: { type: "array", items: { type: "string", pattern: "^i" } },
        tuple: { type: "array", items: [{ pattern: "^t0" }, { pattern: "^t1" }] },
        either: { anyOf: [{ pattern: "^a" }, { not: { pattern: "^n" } }] },
        keyed: { type: "object", patternProperties: { "^k": { pattern: "^kv" } } },
      },
      definitions: { d: { pattern: "^d" } },
      dependencies: { pattern: ["list"] }, // a `dependencies` list is data
      default: { pattern: "^data" },
      enum: [{ pattern: "^enum" }],
      examples: [{ properties: { x: { pattern: "^ex" } } }],
    };
    const patterns = surveySchema(schema);
    expect(patterns?.slice().sort()).toEqual(fullPatterns(schema));
    expect(patterns).not.toContain("^data");
    expect(patterns).not.toContain("^ex");
  });

  it("sends to the full path what needs a rewrite or is not plain JSON data", () => {
    expect(surveySchema({ type: "object", properties: { x: { type: "string" } } })).toEqual([]);
    expect(surveySchema({ type: ["string", "null"] })).toEqual([]);
    expect(surveySchema({ properties: { x: { type: "float" } } })).toBeUndefined(); // an alias the rewrite renames
    expect(surveySchema({ type: ["int", "null"] })).toBeUndefined();
    expect(surveySchema({ type: ["string", "string"] })).toBeUndefined(); // a repeat the rewrite drops
    expect(surveySchema({ properties: { x: { minimum: new PyFloat(1) } } })).toBeUndefined(); // the copy reads it as 1
    expect(surveySchema({ default: undefined })).toBeUndefined();
    expect(surveySchema({ default: new Date(0) })).toBeUndefined();
    expect(surveySchema({ maximum: Number.POSITIVE_INFINITY })).toBeUndefined();
    // Type names in data are data: an enum of "float" is no alias.
    expect(surveySchema({ enum: ["float"], properties: { type: { type: "string" } } })).toEqual([]);
  });

  it("sends to the full path a schema past the limits (which words the limit error)", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 70; i++) deep = { properties: { x: deep } };
    expect(surveySchema(deep)).toBeUndefined();
    expect(surveySchema({ enum: Array.from({ length: 200_001 }, (_, i) => i) })).toBeUndefined();
  });
});
