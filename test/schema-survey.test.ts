/**
 * The request-time schema check's survey walk (src/schema/survey.ts): it must find the patterns the
 * full check compiles (subschemas only, the same keywords as forEachSubschema) and send to the full
 * path every schema it cannot vouch for, so that errors are worded as before.
 */
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { freezeDeep } from "../src/jinja/index.js";
import { PyFloat } from "../src/jinja/py-float.js";
import { DRAFT7_META } from "../src/schema/meta.js";
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
    expect(surveySchema({ default: undefined })).toBeUndefined();
    expect(surveySchema({ default: new Date(0) })).toBeUndefined();
    expect(surveySchema({ maximum: Number.POSITIVE_INFINITY })).toBeUndefined();
    // Type names in data are data: an enum of "float" is no alias.
    expect(surveySchema({ enum: ["float"], properties: { type: { type: "string" } } })).toEqual([]);
  });

  it("takes a PyFloat (`1.0` in the JSON text) for its number, as the text ajv is given prints it", () => {
    expect(surveySchema({ properties: { x: { type: "number", minimum: new PyFloat(1), default: new PyFloat(2), enum: [new PyFloat(2), 3] } }, maxProperties: new PyFloat(3) })).toEqual([]);
    // Where the meta-schema wants a count, its number must be one; where it wants a string, a PyFloat is none.
    expect(surveySchema({ maxLength: new PyFloat(1.5) })).toBeUndefined();
    expect(surveySchema({ multipleOf: new PyFloat(0) })).toBeUndefined();
    expect(surveySchema({ minimum: new PyFloat(Number.NaN) })).toBeUndefined();
    expect(surveySchema({ description: new PyFloat(1) as unknown as string })).toBeUndefined();
    // A PyFloat a caller can still change leaves a frozen schema not frozen.
    const open = { textBound: 0, mentionsRef: false, frozen: true };
    expect(surveySchema(Object.freeze({ default: new PyFloat(1) }), open)).toEqual([]);
    expect(open.frozen).toBe(false);
    const shut = { textBound: 0, mentionsRef: false, frozen: true };
    expect(surveySchema(freezeDeep({ default: new PyFloat(1) }), shut)).toEqual([]);
    expect(shut.frozen).toBe(true);
  });

  it("gives the same answer when the caller knows the schema is deeply frozen, and says it is frozen", () => {
    const schema = freezeDeep({ type: "object", properties: { s: { type: "string", pattern: "^a" }, r: { $ref: "#/definitions/x" } }, definitions: { x: true } });
    const asked = { textBound: 0, mentionsRef: false, frozen: false };
    const told = { textBound: 0, mentionsRef: false, frozen: false };
    expect(surveySchema(schema, told, true)).toEqual(surveySchema(schema, asked));
    expect(told).toEqual(asked);
    expect(told).toMatchObject({ mentionsRef: true, frozen: true });
    // Asked, a container left unfrozen shows.
    const open = { type: "object", properties: Object.freeze({ s: { type: "string" } }) };
    const facts = { textBound: 0, mentionsRef: false, frozen: true };
    expect(surveySchema(Object.freeze(open), facts)).toEqual([]);
    expect(facts.frozen).toBe(false);
  });

  it("told the schema is plain data (read from JSON text), still refuses a PyFloat where a subschema is", () => {
    const facts = { textBound: 0, mentionsRef: false, frozen: false };
    for (const schema of [{ additionalProperties: new PyFloat(1) }, { properties: { x: new PyFloat(1) } }, { properties: new PyFloat(1) }, { items: [new PyFloat(1)] }]) {
      expect(surveySchema(freezeDeep(schema), facts, true, true)).toBeUndefined();
      expect(surveySchema(freezeDeep(schema), facts, true)).toBeUndefined();
    }
    // PyFloats in data and numeric keywords are numbers, as without the hint.
    const data = freezeDeep({ properties: { x: { type: "number", minimum: new PyFloat(1), default: new PyFloat(2) } } });
    expect(surveySchema(data, facts, true, true)).toEqual(surveySchema(data, facts, true));
    expect(surveySchema(data, facts, true, true)).toEqual([]);
  });

  it("says a schema has a $ref only where one is a keyword of a subschema", () => {
    const facts = (schema: object) => {
      const f = { textBound: 0, mentionsRef: false, frozen: false };
      expect(surveySchema(freezeDeep(schema), f, true)).toEqual([]);
      return f.mentionsRef;
    };
    expect(facts({ properties: { n: { $ref: "#/definitions/n" } }, definitions: { n: { type: "integer" } } })).toBe(true);
    expect(facts({ anyOf: [{ items: { $ref: "#" } }] })).toBe(true);
    // A property named $ref, a description or default that spells it, data holding the key: no reference.
    expect(facts({ type: "object", properties: { $ref: { type: "string", description: 'the "$ref' } } })).toBe(false);
    expect(facts({ default: { $ref: "#/x" }, enum: ["$ref"], examples: [{ $ref: "#" }] })).toBe(false);
  });

  it("sends to the full path a schema past the limits (which words the limit error)", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 70; i++) deep = { properties: { x: deep } };
    expect(surveySchema(deep)).toBeUndefined();
    expect(surveySchema({ enum: Array.from({ length: 200_001 }, (_, i) => i) })).toBeUndefined();
  });
});

/** The meta-schema as the full path runs it (ajv, formats not validated). */
const meta = new Ajv({ strict: false, validateFormats: false, validateSchema: false, addUsedSchema: false }).compile(DRAFT7_META);

/** Values of every JSON shape, good and bad for one keyword or another. */
const SHAPES: unknown[] = [
  null, true, false, 0, -1, 1.5, 3, "", "string", "strng", [], ["string"], ["string", 3], [{}], [true, { type: "x" }], [1],
  {}, { type: "string" }, { type: 7 }, { x: 1 }, { x: {} }, { x: ["a"] }, { x: [1] }, { x: true },
];
/** The keywords the meta-schema names, and a few it does not. */
const KEYWORDS = [...Object.keys(DRAFT7_META.properties), "unevaluatedProperties", "prefixItems", "x-vendor"];

describe("surveySchema and the draft-07 meta-schema", () => {
  it("takes a schema only when the meta-schema takes it, at the root and in every kind of subschema", () => {
    let agreedYes = 0;
    for (const key of KEYWORDS) {
      for (const value of SHAPES) {
        const node = { [key]: value };
        const wrapped = [node, { properties: { a: node } }, { items: [node] }, { anyOf: [true, node] }, { not: node }, { dependencies: { a: node } }, { properties: { a: { items: node } } }];
        for (const schema of wrapped) {
          const ours = surveySchema(schema) !== undefined;
          // The root's $schema is dropped before the meta-schema runs.
          const { $schema: _dialect, ...body } = schema as Record<string, unknown>;
          if (ours) expect({ schema, meta: meta(body) }).toEqual({ schema, meta: true });
          if (ours) agreedYes++;
        }
      }
    }
    // And it is not a walk that refuses everything: most of these are valid schemas.
    expect(agreedYes).toBeGreaterThan(KEYWORDS.length * 7 * 5);
  });

  it("takes real tool schemas the meta-schema takes", () => {
    const schemas = [
      { type: "object", properties: { path: { type: "string", description: "p" }, head: { type: "integer", minimum: 1 } }, required: ["path"], additionalProperties: false },
      { type: "object", properties: { tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, minItems: 1, uniqueItems: true } } },
      { type: ["object", "null"], properties: { mode: { enum: ["a", "b"], default: "a" }, n: { type: "number", multipleOf: 0.5, exclusiveMaximum: 10 } } },
      { $schema: "http://json-schema.org/draft-07/schema#", type: "object", dependencies: { a: ["b"], c: { required: ["d"] } }, definitions: { x: { const: 1 } } },
      { type: "object", if: { properties: { k: { const: 1 } } }, then: { required: ["k"] }, else: true, propertyNames: { pattern: "^[a-z]" } },
    ];
    for (const schema of schemas) {
      const { $schema: _dialect, ...body } = schema as Record<string, unknown>;
      expect(meta(body)).toBe(true);
      expect(surveySchema(schema)).toBeDefined();
    }
  });
});
