/**
 * Typing raw parameter text by JSON Schema (src/parse/coerce.ts), rule by rule as docs/formats.md
 * states them ("Typing rules for raw values").
 */
import { describe, expect, it } from "vitest";
import {
  couldBeNonString,
  propertySchema,
  schemaTypes,
  stripOuterNewlines,
  typeRawValue,
  TYPE_ORDER,
  UNTYPED_JSON,
} from "../../src/parse/coerce.js";
import type { ValueType } from "../../src/parse/coerce.js";
import type { JsonSchema } from "../../src/types.js";

/** Types `raw` as the property `key` of `params` would be typed (after the outer newlines go). */
function typed(params: JsonSchema, key: string, raw: string): { value: unknown; json: string } {
  const schema = propertySchema(params, key);
  const types = schema === undefined ? (["string"] as const) : schemaTypes(schema, params);
  return typeRawValue(stripOuterNewlines(raw), types);
}

const PARAMS: JsonSchema = {
  type: "object",
  properties: {
    s: { type: "string" },
    i: { type: "integer" },
    n: { type: "number" },
    b: { type: "boolean" },
    o: { type: "object" },
    a: { type: "array", items: { type: "string" } },
    f: { type: "float" },
    nullable: { type: ["string", "null"] },
    maybeInt: { anyOf: [{ type: "integer" }, { type: "null" }] },
    intOrString: { oneOf: [{ type: "string" }, { type: "integer" }] },
    ref: { $ref: "#/$defs/Count" },
    oldRef: { $ref: "#/definitions/Flag" },
    enumInts: { enum: [1, 2, 3] },
    noType: { description: "anything" },
    openapiNullable: { type: "integer", nullable: true },
  },
  $defs: { Count: { type: "integer", minimum: 0 } },
  definitions: { Flag: { type: "boolean" } },
};

describe("stripOuterNewlines", () => {
  it("removes exactly one newline at each end", () => {
    expect(stripOuterNewlines("\nx\n")).toBe("x");
    expect(stripOuterNewlines("\n\nx\n\n")).toBe("\nx\n");
    expect(stripOuterNewlines("\r\nx\r\n")).toBe("x");
    expect(stripOuterNewlines("  x  ")).toBe("  x  ");
    expect(stripOuterNewlines("\n")).toBe("");
  });
});

describe("typeRawValue by schema", () => {
  it("keeps a string verbatim: digits, spaces, inner newlines", () => {
    expect(typed(PARAMS, "s", "\n03106\n")).toEqual({ value: "03106", json: '"03106"' });
    expect(typed(PARAMS, "s", "  indented  ")).toEqual({ value: "  indented  ", json: '"  indented  "' });
    expect(typed(PARAMS, "s", "\nline1\n\tline2\n\n").value).toBe("line1\n\tline2\n");
    expect(typed(PARAMS, "s", "null").value).toBe("null");
    expect(typed(PARAMS, "s", "深圳 🎉").json).toBe('"深圳 🎉"');
  });

  it("reads integers, keeping every digit of a big one in the JSON text", () => {
    expect(typed(PARAMS, "i", "\n42\n")).toEqual({ value: 42, json: "42" });
    expect(typed(PARAMS, "i", " -7 ")).toEqual({ value: -7, json: "-7" });
    expect(typed(PARAMS, "i", "12345678901234567890").json).toBe("12345678901234567890");
    expect(typed(PARAMS, "i", "3.0")).toEqual({ value: 3, json: "3.0" });
    // Not an integer: the text stays a string (ajv then reports the type).
    expect(typed(PARAMS, "i", "abc")).toEqual({ value: "abc", json: '"abc"' });
    expect(typed(PARAMS, "i", "3.5")).toEqual({ value: "3.5", json: '"3.5"' });
  });

  it("reads numbers and keeps the model's spelling when it is JSON", () => {
    expect(typed(PARAMS, "n", "3.0")).toEqual({ value: 3, json: "3.0" });
    expect(typed(PARAMS, "n", "1e5")).toEqual({ value: 100000, json: "1e5" });
    expect(typed(PARAMS, "n", ".5")).toEqual({ value: 0.5, json: "0.5" });
    expect(typed(PARAMS, "f", "3.14")).toEqual({ value: 3.14, json: "3.14" });
    expect(typed(PARAMS, "n", "NaN").value).toBe("NaN");
  });

  it("reads booleans in either case", () => {
    expect(typed(PARAMS, "b", "true")).toEqual({ value: true, json: "true" });
    expect(typed(PARAMS, "b", "\nFalse\n")).toEqual({ value: false, json: "false" });
    expect(typed(PARAMS, "b", "yes").value).toBe("yes");
  });

  it("reads objects and arrays as JSON, then as Python literals", () => {
    expect(typed(PARAMS, "o", '{"width": 10, \n "height": 20}')).toEqual({ value: { width: 10, height: 20 }, json: '{"width": 10, "height": 20}' });
    expect(typed(PARAMS, "o", "{'a': True, 'b': None}")).toEqual({ value: { a: true, b: null }, json: '{"a": true, "b": null}' });
    expect(typed(PARAMS, "a", '["a","b"]')).toEqual({ value: ["a", "b"], json: '["a", "b"]' });
    expect(typed(PARAMS, "a", "('x', 'y')").value).toEqual(["x", "y"]);
    // An array is not an object and the other way round; broken JSON stays text.
    expect(typed(PARAMS, "o", "[1]").value).toBe("[1]");
    expect(typed(PARAMS, "a", "{}").value).toBe("{}");
    expect(typed(PARAMS, "o", "{not json").value).toBe("{not json");
  });

  it("gives null only where the schema allows it", () => {
    expect(typed(PARAMS, "nullable", "null")).toEqual({ value: null, json: "null" });
    expect(typed(PARAMS, "nullable", "None").value).toBeNull();
    expect(typed(PARAMS, "maybeInt", "null").value).toBeNull();
    expect(typed(PARAMS, "openapiNullable", "null").value).toBeNull();
    expect(typed(PARAMS, "i", "null").value).toBe("null");
  });

  it("tries union types in the order null, integer, number, boolean, object, array, string", () => {
    expect(schemaTypes(propertySchema(PARAMS, "intOrString"), PARAMS)).toEqual(["integer", "string"]);
    expect(typed(PARAMS, "intOrString", "5")).toEqual({ value: 5, json: "5" });
    expect(typed(PARAMS, "intOrString", "five").value).toBe("five");
    expect(typed(PARAMS, "maybeInt", "5").value).toBe(5);
    expect(typed(PARAMS, "nullable", "hello").value).toBe("hello");
  });

  it("resolves local $refs to $defs and definitions", () => {
    expect(typed(PARAMS, "ref", "7").value).toBe(7);
    expect(typed(PARAMS, "oldRef", "true").value).toBe(true);
    const nested: JsonSchema = { $ref: "#/$defs/Args", $defs: { Args: { type: "object", properties: { k: { type: "integer" } } } } };
    expect(typed(nested, "k", "1").value).toBe(1);
  });

  it("infers the type from enum values; a property without a type is a string", () => {
    expect(schemaTypes(propertySchema(PARAMS, "enumInts"), PARAMS)).toEqual(["integer"]);
    expect(typed(PARAMS, "enumInts", "2").value).toBe(2);
    expect(typed(PARAMS, "noType", "42").value).toBe("42");
  });

  it("keeps a key the schema does not declare as a string", () => {
    expect(propertySchema(PARAMS, "undeclared")).toBeUndefined();
    expect(typed(PARAMS, "undeclared", "5")).toEqual({ value: "5", json: '"5"' });
    // Inherited object keys are not properties.
    expect(propertySchema(PARAMS, "constructor")).toBeUndefined();
  });

  it("decodes JSON-looking untyped values when a family asks for it (GLM)", () => {
    expect(typeRawValue("42", UNTYPED_JSON).value).toBe(42);
    expect(typeRawValue("3.14", UNTYPED_JSON).value).toBe(3.14);
    expect(typeRawValue("true", UNTYPED_JSON).value).toBe(true);
    expect(typeRawValue("null", UNTYPED_JSON).value).toBeNull();
    expect(typeRawValue("[1, 2, 3]", UNTYPED_JSON).value).toEqual([1, 2, 3]);
    expect(typeRawValue('"From Zero" Linkin Park', UNTYPED_JSON).value).toBe('"From Zero" Linkin Park');
  });
});

describe("couldBeNonString", () => {
  it("says whether a value's start can still be a non-string literal", () => {
    const types: readonly ValueType[] = ["null", "integer", "string"];
    expect(couldBeNonString("", types)).toBe(true);
    expect(couldBeNonString("  nu", types)).toBe(true);
    expect(couldBeNonString("12", types)).toBe(true);
    expect(couldBeNonString("12a", types)).toBe(false);
    expect(couldBeNonString("hello", types)).toBe(false);
    expect(couldBeNonString("{", ["object", "string"])).toBe(true);
    expect(couldBeNonString("x", ["string"])).toBe(false);
  });

  it("never turns true again once false (so the streaming decision does not depend on splits)", () => {
    const texts = ["null x", "12.5e3 apples", "{'a': 1} tail", "  true  story", "None of it", "-0x1f!"];
    for (const text of texts) {
      let was = true;
      for (let k = 0; k <= text.length; k++) {
        const now = couldBeNonString(text.slice(0, k), TYPE_ORDER);
        if (!was) expect(now, `${JSON.stringify(text.slice(0, k))}`).toBe(false);
        was = now;
      }
    }
  });
});
