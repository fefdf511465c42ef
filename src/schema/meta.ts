/**
 * The draft-07 meta-schema that tool schemas are checked against before they are compiled (a schema
 * with `"type": "integr"` is an error, not a validator that accepts everything). It is the official
 * meta-schema with one change: `uniqueItems` is dropped from `enum` and from string arrays (`required`),
 * because checking it is quadratic (a 40k-value enum took 7 s) and duplicates there are harmless.
 * Written out rather than imported from ajv's package so the interpreting validator can use it too.
 */
const schemaArray = { type: "array", minItems: 1, items: { $ref: "#" } };
const nonNegativeInteger = { type: "integer", minimum: 0 };
const nonNegativeIntegerDefault0 = { allOf: [{ $ref: "#/definitions/nonNegativeInteger" }, { default: 0 }] };
const simpleTypes = { enum: ["array", "boolean", "integer", "null", "number", "object", "string"] };
const stringArray = { type: "array", items: { type: "string" }, default: [] };

export const DRAFT7_META = {
  // Its own id, so it never collides with the draft-07 meta-schema ajv registers for itself.
  $id: "https://chatwire.invalid/draft-07-tool-schema",
  definitions: { schemaArray, nonNegativeInteger, nonNegativeIntegerDefault0, simpleTypes, stringArray },
  type: ["object", "boolean"],
  properties: {
    $id: { type: "string", format: "uri-reference" },
    $schema: { type: "string", format: "uri" },
    $ref: { type: "string", format: "uri-reference" },
    $comment: { type: "string" },
    title: { type: "string" },
    description: { type: "string" },
    default: true,
    readOnly: { type: "boolean", default: false },
    examples: { type: "array", items: true },
    multipleOf: { type: "number", exclusiveMinimum: 0 },
    maximum: { type: "number" },
    exclusiveMaximum: { type: "number" },
    minimum: { type: "number" },
    exclusiveMinimum: { type: "number" },
    maxLength: { $ref: "#/definitions/nonNegativeInteger" },
    minLength: { $ref: "#/definitions/nonNegativeIntegerDefault0" },
    pattern: { type: "string", format: "regex" },
    additionalItems: { $ref: "#" },
    items: { anyOf: [{ $ref: "#" }, { $ref: "#/definitions/schemaArray" }], default: true },
    maxItems: { $ref: "#/definitions/nonNegativeInteger" },
    minItems: { $ref: "#/definitions/nonNegativeIntegerDefault0" },
    uniqueItems: { type: "boolean", default: false },
    contains: { $ref: "#" },
    maxProperties: { $ref: "#/definitions/nonNegativeInteger" },
    minProperties: { $ref: "#/definitions/nonNegativeIntegerDefault0" },
    required: { $ref: "#/definitions/stringArray" },
    additionalProperties: { $ref: "#" },
    definitions: { type: "object", additionalProperties: { $ref: "#" }, default: {} },
    $defs: { type: "object", additionalProperties: { $ref: "#" }, default: {} },
    properties: { type: "object", additionalProperties: { $ref: "#" }, default: {} },
    patternProperties: { type: "object", additionalProperties: { $ref: "#" }, propertyNames: { format: "regex" }, default: {} },
    dependencies: { type: "object", additionalProperties: { anyOf: [{ $ref: "#" }, { $ref: "#/definitions/stringArray" }] } },
    propertyNames: { $ref: "#" },
    const: true,
    enum: { type: "array", items: true, minItems: 1 },
    type: {
      anyOf: [{ $ref: "#/definitions/simpleTypes" }, { type: "array", items: { $ref: "#/definitions/simpleTypes" }, minItems: 1, uniqueItems: true }],
    },
    format: { type: "string" },
    contentMediaType: { type: "string" },
    contentEncoding: { type: "string" },
    if: { $ref: "#" },
    then: { $ref: "#" },
    else: { $ref: "#" },
    allOf: { $ref: "#/definitions/schemaArray" },
    anyOf: { $ref: "#/definitions/schemaArray" },
    oneOf: { $ref: "#/definitions/schemaArray" },
    not: { $ref: "#" },
  },
  default: true,
} as const;
