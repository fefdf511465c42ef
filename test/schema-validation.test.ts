/**
 * Tool schemas that cannot validate anything are request errors naming their field (issue 11), in
 * render, parse and grammar alike, with either validator engine (ajv where code generation is allowed,
 * the interpreting one where a CSP forbids it); model output meets schema patterns only through a
 * linear-time engine (issue 10), and absurd schemas are refused with a typed error.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ChatwireError, parseCompletion, readJson, readSharedJson, templateFromConfig, buildToolJsonSchema } from "../src/index.js";
import { SCHEMA_LIMITS, forceSchemaEngine, type SchemaEngine } from "../src/schema/index.js";
import { ajvCompileCount } from "../src/schema/codegen.js";

const TEMPLATE = templateFromConfig({
  chat_template:
    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}{% endfor %}{% if tools %}{% for t in tools %}{{ t | tojson }}{% endfor %}{% endif %}<|assistant|>",
});

function tool(name: string, parameters: unknown): Record<string, unknown> {
  return { type: "function", function: { name, parameters } };
}
const OK = tool("ok", { type: "object", properties: { q: { type: "string" } } });
const request = (tools: unknown[]): Record<string, unknown> => ({ messages: [{ role: "user", content: "hi" }], tools });
const call = (name: string, args: unknown): string => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

function thrown(fn: () => unknown): ChatwireError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ChatwireError) return err;
    throw err;
  }
  throw new Error("expected a ChatwireError, nothing was thrown");
}

afterAll(() => forceSchemaEngine(undefined));

describe.each<SchemaEngine>(["codegen", "interpret"])("tool schemas with the %s engine", (engine) => {
  forceSchemaEngine(engine);
  const use = <T>(fn: () => T): T => {
    forceSchemaEngine(engine);
    return fn();
  };

  // What is wrong, the message, and where the error's field goes on inside the schema (the wrong
  // place, when the meta-schema names one).
  const BROKEN: Array<[string, unknown, RegExp, string]> = [
    // The bad value and the allowed ones, once, without the validators' anyOf alternatives.
    [
      "a misspelt type",
      { type: "object", properties: { n: { type: "integr" } } },
      /not a valid JSON Schema: \/properties\/n\/type: "integr" is not a JSON Schema type \(allowed: "array", "boolean", "integer", "null", "number", "object", "string", or an array of them\)$/,
      ".properties.n.type",
    ],
    ["a misspelt type in a list", { type: "object", properties: { n: { type: ["string", "nul"] } } }, /not a valid JSON Schema: \/properties\/n\/type\/1: "nul" is not a JSON Schema type \(allowed: [^;]*\)$/, ".properties.n.type[1]"],
    // A key that is not a plain name is quoted, so it reads back as a key (and "0" not as an index).
    ["a misspelt type under an odd key", { type: "object", properties: { "a.b": { type: "strng" }, "0": { type: "string" } } }, /\/properties\/a\.b\/type: "strng"/, '.properties["a.b"].type'],
    // Both validators' complaints about a value of the wrong kind read the same; a type name where a schema belongs says what was meant.
    ["a type name in place of a schema", { type: "object", properties: { x: "string" } }, /not a valid JSON Schema: \/properties\/x: "string" must be an object or a boolean \(a schema: write \{"type": "string"\}\)$/, ".properties.x"],
    ["a string for a list", { type: "object", required: "x" }, /not a valid JSON Schema: \/required: "x" must be an array$/, ".required"],
    ["a negative length", { type: "object", properties: { x: { type: "string", minLength: -1 } } }, /not a valid JSON Schema: \/properties\/x\/minLength: -1 must be >= 0$/, ".properties.x.minLength"],
    ["a dangling $ref", { type: "object", properties: { n: { $ref: "#/$defs/missing" } } }, /can't resolve reference #\/\$defs\/missing/, ""],
    ["an invalid pattern", { type: "object", properties: { n: { type: "string", pattern: "([a-z]" } } }, /pattern "\(\[a-z\]" is not a valid regular expression/, ""],
    ["a backreference", { type: "object", properties: { n: { type: "string", pattern: "^(a+)\\1$" } } }, /backreference/, ""],
  ];

  for (const [what, schema, message, inside] of BROKEN) {
    it(`${what} is an invalid_request naming tools[2].function.parameters in render, parse and grammar`, () => {
      const body = request([OK, tool("ok2", { type: "object" }), tool("broken", schema)]); // distinct names: a repeated one is an error of its own
      for (const run of [() => TEMPLATE.render(body), () => TEMPLATE.parse(call("ok", {}), body), () => parseCompletion("hermes", call("ok", {}), body), () => buildToolJsonSchema(body)]) {
        const err = use(() => thrown(run));
        expect(err.code).toBe("invalid_request");
        expect(err.field).toBe(`tools[2].function.parameters${inside}`);
        expect(err.message).toMatch(message);
        expect(err.message.startsWith("tools[2].function.parameters: ")).toBe(true);
      }
    });
  }

  it("reads Python type names (float, int, dict) as the coercer does, and validates by them", () => {
    const body = request([tool("t", { type: "object", properties: { f: { type: "float" }, i: { type: "Int" }, d: { type: "dict" } } })]);
    expect(use(() => parseCompletion("hermes", call("t", { f: 1.5, i: 2, d: {} }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("t", { f: "x", i: 2.5, d: [] }), body)).errors[0]?.message).toMatch(/arguments\/f .*arguments\/i .*arguments\/d /);
  });

  it("keeps two patterns of one schema apart", () => {
    const body = request([tool("t", { type: "object", properties: { a: { type: "string", pattern: "^a+$" }, b: { type: "string", pattern: "^b+$" } } })]);
    expect(use(() => parseCompletion("hermes", call("t", { a: "aa", b: "bb" }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("t", { a: "bb", b: "aa" }), body)).errors[0]?.details).toHaveLength(2);
  });

  it("reads floats kept by readJson (PyFloat) in a schema as numbers", () => {
    const body = readJson('{"messages": [], "tools": [{"type": "function", "function": {"name": "t", "parameters": {"type": "object", "properties": {"x": {"type": "number", "minimum": 0.0, "maximum": 1.0}}}}}]}');
    expect(use(() => parseCompletion("hermes", call("t", { x: 0.5 }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("t", { x: 1.5 }), body)).errors[0]?.type).toBe("invalid_arguments");
  });

  it("follows local $refs ($defs, definitions) and checks through them", () => {
    const schema = {
      type: "object",
      $defs: { City: { type: "string", minLength: 2 } },
      definitions: { Unit: { enum: ["c", "f"] } },
      properties: { city: { $ref: "#/$defs/City" }, unit: { $ref: "#/definitions/Unit" } },
      required: ["city"],
    };
    const body = request([tool("t", schema)]);
    expect(use(() => parseCompletion("hermes", call("t", { city: "Oslo", unit: "c" }), body)).errors).toEqual([]);
    const bad = use(() => parseCompletion("hermes", call("t", { city: "O", unit: "k" }), body));
    expect(bad.errors[0]?.message).toMatch(/arguments\/city .*arguments\/unit /);
  });

  it("matches patternProperties keys in linear time too", () => {
    const body = request([tool("t", { type: "object", patternProperties: { "^x_[a-z]+$": { type: "integer" } }, additionalProperties: false })]);
    expect(use(() => parseCompletion("hermes", call("t", { x_a: 1 }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("t", { x_a: "1" }), body)).errors[0]?.type).toBe("invalid_arguments");
    expect(use(() => parseCompletion("hermes", call("t", { y: 1 }), body)).errors[0]?.type).toBe("invalid_arguments");
  });

  it("names the flat field of a Responses tool", () => {
    const body = { input: "hi", tools: [{ type: "function", name: "f", parameters: { type: "strng" } }] };
    const err = use(() => thrown(() => TEMPLATE.render(body)));
    expect(err.field).toBe("tools[0].parameters.type");
  });

  it("still rejects invalid arguments, with ajv-style messages", () => {
    const body = request([tool("get", { type: "object", properties: { n: { type: "integer" }, u: { enum: ["c", "f"] } }, required: ["n"] })]);
    const result = use(() => parseCompletion("hermes", call("get", { n: "x", u: "k" }), body));
    expect(result.message.tool_calls).toBeUndefined();
    expect(result.errors[0]?.type).toBe("invalid_arguments");
    expect(result.errors[0]?.message).toMatch(/arguments\/n /);
    expect(result.errors[0]?.message).toMatch(/arguments\/u /);
    const good = use(() => parseCompletion("hermes", call("get", { n: 3, u: "c" }), body));
    expect(JSON.parse(good.message.tool_calls?.[0]?.function.arguments ?? "")).toEqual({ n: 3, u: "c" });
  });

  it("matches ^(a+)+$ against hostile output in linear time (would hang for seconds on backtracking)", () => {
    const body = request([tool("t", { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } })]);
    const bad = use(() => parseCompletion("hermes", call("t", { s: `${"a".repeat(5000)}!` }), body));
    expect(bad.errors[0]?.type).toBe("invalid_arguments");
    expect(bad.errors[0]?.message).toContain('must match pattern "^(a+)+$"');
    const good = use(() => parseCompletion("hermes", call("t", { s: "a".repeat(5000) }), body));
    expect(good.errors).toEqual([]);
  });

  it("runs a lookahead pattern (not expressible in RE2) on the native engine", () => {
    const body = request([tool("t", { type: "object", properties: { s: { type: "string", pattern: "^(?=.*\\d)[a-z\\d]{4,}$" } } })]);
    expect(use(() => parseCompletion("hermes", call("t", { s: "abc1" }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("t", { s: "abcd" }), body)).errors[0]?.type).toBe("invalid_arguments");
  });

  it("compiles a 40k-value enum (quadratic in ajv's meta-schema check) and validates against it", () => {
    const values = Array.from({ length: 40_000 }, (_, i) => `v${i}`);
    const body = request([tool("pick", { type: "object", properties: { v: { enum: values } }, required: ["v"] })]);
    expect(use(() => parseCompletion("hermes", call("pick", { v: "v39999" }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("pick", { v: "v40000" }), body)).errors[0]?.type).toBe("invalid_arguments");
  });

  it("refuses schemas past the documented limits with limit_exceeded", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < SCHEMA_LIMITS.maxDepth; i++) deep = { type: "object", properties: { x: deep } };
    const huge = { type: "object", description: "x".repeat(SCHEMA_LIMITS.maxChars) };
    for (const schema of [deep, huge]) {
      const err = use(() => thrown(() => TEMPLATE.render(request([tool("big", schema)]))));
      expect(err.code).toBe("limit_exceeded");
      expect(err.field).toBe("tools[0].function.parameters");
    }
  });

  it("ignores a root $schema naming another draft, and does not mistake a property named pattern for the keyword", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { pattern: { type: "string" }, format: { type: "string", format: "email", default: { pattern: "zzz" } } },
      required: ["pattern"],
    };
    const body = request([tool("t", schema)]);
    expect(use(() => parseCompletion("hermes", call("t", { pattern: "abc", format: "not-an-email" }), body)).errors).toEqual([]);
    expect(use(() => parseCompletion("hermes", call("t", { pattern: 1 }), body)).errors[0]?.type).toBe("invalid_arguments");
  });
});

describe("validators are compiled when a call needs one, not when the request is read (issue 19)", () => {
  // A schema no other test uses, so no cache already holds its validator.
  const fresh = (): Record<string, unknown> =>
    tool("lazy", { type: "object", properties: { n: { type: "integer", minimum: 3, description: `unique ${Math.random()}` } }, required: ["n"] });

  it("renders and checks a new schema without compiling it, then compiles it once for a call", () => {
    forceSchemaEngine("codegen");
    try {
      const req = request([fresh()]);
      const before = ajvCompileCount();
      TEMPLATE.render(req);
      TEMPLATE.render(req);
      expect(ajvCompileCount()).toBe(before);
      const bad = parseCompletion("hermes", call("lazy", { n: 1 }), req);
      expect(bad.errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
      expect(ajvCompileCount()).toBe(before + 1);
      expect(parseCompletion("hermes", call("lazy", { n: 4 }), req).message.tool_calls).toHaveLength(1);
      expect(ajvCompileCount()).toBe(before + 1);
    } finally {
      forceSchemaEngine(undefined);
    }
  });

  it("checks a caller's plain schema again on every render: an edit that breaks it is refused", () => {
    forceSchemaEngine("codegen");
    try {
      const inner: Record<string, unknown> = { type: "string", description: `edited ${Math.random()}` };
      const body = request([tool("t0", { type: "object", properties: { n: inner } })]);
      TEMPLATE.render(body);
      inner.type = "integr";
      expect(thrown(() => TEMPLATE.render(body)).field).toBe("tools[0].function.parameters.properties.n.type");
      inner.type = "integer";
      expect(TEMPLATE.render(body)).toContain('"integer"');
      // A new object each render (a caller's JSON.parse of each body) with the same bad schema.
      for (let i = 0; i < 3; i++) {
        const fresh = request([tool("t0", { type: "object", description: "fresh", properties: { n: { type: "integr" } } })]);
        expect(thrown(() => TEMPLATE.render(fresh)).field).toBe("tools[0].function.parameters.properties.n.type");
      }
    } finally {
      forceSchemaEngine(undefined);
    }
  });

  it("still refuses a bad schema when the request is read, naming the field", () => {
    const e = thrown(() => TEMPLATE.render(request([OK, tool("bad", { type: "object", properties: { s: { type: "string", pattern: "(" } } })])));
    expect(e.code).toBe("invalid_request");
    expect(e.field).toBe("tools[1].function.parameters");
    const typo = thrown(() => TEMPLATE.render(request([tool("bad", { type: "integr" })])));
    expect(typo.field).toBe("tools[0].function.parameters.type");
  });
});

describe("deeply frozen schemas (readSharedJson's bodies) are checked by identity, without their text", () => {
  // Read from text, so each schema below is a deeply frozen value; a number no other test uses keeps
  // caches by text from holding it already.
  const frozenBody = (schemas: unknown[]): Record<string, unknown> =>
    readSharedJson(JSON.stringify(request(schemas.map((schema, i) => tool(`t${i}`, schema))))) as Record<string, unknown>;
  const unique = () => `frozen ${Math.random()}`;

  it("refuses what a plain object's check refuses, with the same error", () => {
    forceSchemaEngine("codegen");
    try {
      const bad: unknown[] = [
        { type: "object", description: unique(), properties: { n: { type: "integr" } } },
        { type: "object", description: unique(), properties: { n: { minLength: -1 } } },
        { type: "object", description: unique(), properties: { n: { type: "string", pattern: "([a-z]" } } },
        { type: "object", description: unique(), properties: { n: { $ref: "#/$defs/missing" } } },
        { type: "object", description: unique(), properties: { n: { enum: [] } } },
        { type: "object", description: unique(), required: "n" },
      ];
      for (const schema of bad) {
        const frozen = thrown(() => TEMPLATE.render(frozenBody([{ type: "object" }, schema])));
        const plain = thrown(() => TEMPLATE.render(request([tool("t0", { type: "object" }), tool("t1", schema)])));
        expect(frozen.field?.startsWith("tools[1].function.parameters")).toBe(true);
        expect({ code: frozen.code, field: frozen.field, message: frozen.message }).toEqual({ code: plain.code, field: plain.field, message: plain.message });
      }
      const long = { type: "object", description: "d".repeat(SCHEMA_LIMITS.maxChars) };
      expect(thrown(() => TEMPLATE.render(frozenBody([long]))).code).toBe("limit_exceeded");
    } finally {
      forceSchemaEngine(undefined);
    }
  });

  it("trusts a schema by identity only when all of it is frozen, not its root alone", () => {
    const inner: Record<string, unknown> = { type: "string", description: unique() };
    const schema = Object.freeze({ type: "object", properties: Object.freeze({ n: inner }) });
    TEMPLATE.render(request([tool("t0", schema)]));
    inner.type = "integr";
    expect(thrown(() => TEMPLATE.render(request([tool("t0", schema)]))).field).toBe("tools[0].function.parameters.properties.n.type");
  });

  it("checks integral floats (`1.0`, as Python clients write them) by their numbers, in a schema read again and again", () => {
    // One fingerprint read with new descriptions each time: the reader marks the floats before it parses.
    const text = (d: string, bad: boolean) =>
      JSON.stringify(request([tool("t0", { type: "object", description: d, properties: { n: { type: "number", minimum: "@1", maximum: "@9", default: "@2" }, s: { type: "string", maxLength: bad ? "@-1" : "@3" } } })])).replaceAll(/"@(-?\d+)"/g, "$1.0");
    for (let i = 0; i < 4; i++) {
      const body = readSharedJson(text(unique(), false)) as Record<string, unknown>;
      expect(TEMPLATE.render(body)).toContain('"minimum": 1.0, "maximum": 9.0, "default": 2.0');
      expect(parseCompletion("hermes", call("t0", { n: 0.5, s: "ab" }), body).errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
      expect(parseCompletion("hermes", call("t0", { n: 9, s: "abcd" }), body).errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
      expect(parseCompletion("hermes", call("t0", { n: 2, s: "abc" }), body).errors).toEqual([]);
      expect(thrown(() => TEMPLATE.render(readSharedJson(text(unique(), true)) as Record<string, unknown>)).field).toBe("tools[0].function.parameters.properties.s.maxLength");
    }
  });

  it("compiles a frozen schema only for a call, and a $ref one at once", () => {
    forceSchemaEngine("codegen");
    try {
      const body = frozenBody([{ type: "object", description: unique(), properties: { n: { type: "integer", minimum: 3 } }, required: ["n"] }]);
      const before = ajvCompileCount();
      TEMPLATE.render(body);
      expect(ajvCompileCount()).toBe(before);
      expect(parseCompletion("hermes", call("t0", { n: 1 }), body).errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
      expect(parseCompletion("hermes", call("t0", { n: 4 }), body).errors).toEqual([]);
      expect(ajvCompileCount()).toBe(before + 1);
      const withRef = frozenBody([{ type: "object", description: unique(), $defs: { n: { type: "integer" } }, properties: { n: { $ref: "#/$defs/n" } } }]);
      TEMPLATE.render(withRef);
      expect(ajvCompileCount()).toBe(before + 2);
      // Spelling "$ref" in a description, a property's name or a default is no reference: compiled only for a call.
      const spelled = frozenBody([{ type: "object", description: `${unique()}, see "$ref`, properties: { $ref: { type: "integer", default: { $ref: "#/x" } } }, required: ["$ref"] }]);
      TEMPLATE.render(spelled);
      expect(ajvCompileCount()).toBe(before + 2);
      expect(parseCompletion("hermes", call("t0", { $ref: "x" }), spelled).errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
      expect(parseCompletion("hermes", call("t0", { $ref: 2 }), spelled).errors).toEqual([]);
      expect(ajvCompileCount()).toBe(before + 3);
    } finally {
      forceSchemaEngine(undefined);
    }
  });
});
