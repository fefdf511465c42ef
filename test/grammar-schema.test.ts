/**
 * The GBNF text itself (structure of a small request's grammar), JSON Schema features in argument
 * rules (checked by recognising values against the json-block grammar), the json-schema kind (checked
 * with ajv against call objects), the error for formats without a grammar, and the CLI command.
 */
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/run-cli.js";
import { ChatwireError } from "../src/errors.js";
import { getFormat } from "../src/formats/index.js";
import { buildGbnf, buildToolJsonSchema, grammarFormats } from "../src/grammar/index.js";
import { readJson } from "../src/request/index.js";
import { GbnfRecognizer } from "./helpers/gbnf-recognizer.js";
import { seededRandom } from "./helpers/rng.js";
import { GbnfBuilder } from "../src/grammar/gbnf.js";
import { textWithout } from "../src/grammar/text-rules.js";
import { join } from "node:path";
import { FIXTURES } from "./helpers/fixtures.js";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { city: { type: "string", pattern: "^(?=[A-Z])" }, unit: { enum: ["c", "f"] } },
      required: ["city"],
    },
  },
};

describe("the GBNF text", () => {
  const grammar = buildGbnf("hermes", { tools: [WEATHER] });
  const rules = new Map(
    grammar
      .split("\n")
      .filter((l) => l.includes(" ::= "))
      .map((l) => [l.slice(0, l.indexOf(" ::= ")), l.slice(l.indexOf(" ::= ") + 5)] as const),
  );

  it("starts at root: optional reasoning, then the answer", () => {
    expect(rules.get("root")).toBe("reasoning? answer");
    expect(rules.get("reasoning")).toBe('"<think>" reasoning-text "</think>"');
    expect(rules.get("answer")).toBe("content (calls content)*");
  });

  it("a call is the family's tags around the name and the schema's arguments", () => {
    expect(rules.get("calls")).toBe("call-region");
    expect(rules.get("call-region")).toBe('"<tool_call>" "\\n" (json-call | "[" space json-call ("," space json-call)* "]" space) "\\n" "</tool_call>"');
    expect(rules.get("json-call")).toBe("get-weather-call");
    expect(rules.get("get-weather-call")).toContain('"\\"get_weather\\""');
    expect(rules.get("get-weather-call")).toContain("get-weather-args");
  });

  it("required properties are mandatory, optional ones are wrapped in ( )?", () => {
    expect(rules.get("get-weather-args")).toBe(
      '"{" space "\\"city\\"" space ":" space json-string ("," space "\\"unit\\"" space ":" space ("\\"c\\"" space | "\\"f\\"" space))? "}" space',
    );
  });

  it("every referenced rule is defined, names are GBNF names, unsupported keywords are listed", () => {
    for (const [name, body] of rules) {
      expect(name).toMatch(/^[A-Za-z0-9-]+$/);
      const refs = body.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, " ").match(/[A-Za-z][A-Za-z0-9-]*/g) ?? [];
      for (const ref of refs) expect(rules.has(ref), `${name} refers to ${ref}`).toBe(true);
    }
    // (a lookahead has no GBNF form)
    expect(grammar).toMatch(/^# relaxed .*pattern \(lookaround\) at get_weather-args-city/m);
  });

  it("text excludes every marker of the format, and any run of whitespace is the model's", () => {
    const text = new GbnfRecognizer(grammar, "content");
    expect(text.accepts("Calls look like <tool_cal> tags, or <tool_call")).toBe(true);
    for (const marker of ["<tool_call>", "</tool_call>", "<think>", "</think>", "<|im_end|>"]) {
      expect(text.accepts(`a ${marker} b`), marker).toBe(false);
    }
    expect(text.accepts(`a${" ".repeat(40)}b${"\n".repeat(40)}`)).toBe(true);
    expect(text.accepts(`a${" \n".repeat(30)} <tool_call>`)).toBe(false);
  });
});

/** A json-block grammar for one tool with `parameters`, and whether it accepts `args` (JSON text). */
function argsAccepted(parameters: unknown, args: string): boolean {
  const grammar = buildGbnf("json-block", { tools: [{ type: "function", function: { name: "f", parameters } }], tool_choice: "required" });
  return new GbnfRecognizer(grammar).accepts(`\`\`\`json\n{"name": "f", "arguments": ${args}}\n\`\`\``);
}

describe("JSON Schema features in argument rules", () => {
  it("$ref to $defs, including recursion", () => {
    const tree = {
      type: "object",
      properties: { root: { $ref: "#/$defs/node" } },
      required: ["root"],
      $defs: { node: { type: "object", properties: { v: { type: "integer" }, kids: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["v"] } },
    };
    expect(argsAccepted(tree, '{"root": {"v": 1, "kids": [{"v": 2}, {"v": 3, "kids": []}]}}')).toBe(true);
    expect(argsAccepted(tree, '{"root": {"v": 1, "kids": [{"v": "2"}]}}')).toBe(false);
  });

  it("two tools with a definition of the same name each get their own rule", () => {
    const tool = (name: string, leaf: string) => ({
      type: "function",
      function: { name, parameters: { type: "object", properties: { v: { $ref: "#/$defs/leaf" } }, required: ["v"], $defs: { leaf: { type: leaf } } } },
    });
    const grammar = buildGbnf("json-block", { tools: [tool("a", "integer"), tool("b", "string")], tool_choice: "required" });
    const r = new GbnfRecognizer(grammar);
    const call = (name: string, v: string) => `\`\`\`json\n{"name": "${name}", "arguments": {"v": ${v}}}\n\`\`\``;
    expect(r.accepts(call("a", "1"))).toBe(true);
    expect(r.accepts(call("b", '"x"'))).toBe(true);
    expect(r.accepts(call("a", '"x"'))).toBe(false);
    expect(r.accepts(call("b", "1"))).toBe(false);
  });

  it("anyOf / oneOf, type lists and nullable", () => {
    const p = {
      type: "object",
      properties: { a: { anyOf: [{ type: "integer" }, { type: "string" }] }, b: { type: ["boolean", "null"] }, c: { type: "number", nullable: true }, d: { oneOf: [{ const: 1 }, { const: "x" }] } },
    };
    expect(argsAccepted(p, '{"a": 1, "b": null, "c": null, "d": "x"}')).toBe(true);
    expect(argsAccepted(p, '{"a": "s", "b": true, "c": 2.5, "d": 1}')).toBe(true);
    expect(argsAccepted(p, '{"a": true}')).toBe(false);
    expect(argsAccepted(p, '{"b": 0}')).toBe(false);
    expect(argsAccepted(p, '{"d": 2}')).toBe(false);
  });

  it("const and enum of any JSON value", () => {
    const p = { type: "object", properties: { mode: { const: "fast" }, level: { enum: [1, 2.5, null, [1, "a"], { k: true }] } } };
    expect(argsAccepted(p, '{"mode": "fast", "level": [1, "a"]}')).toBe(true);
    expect(argsAccepted(p, '{"level": {"k": true}}')).toBe(true);
    expect(argsAccepted(p, '{"mode": "slow"}')).toBe(false);
    expect(argsAccepted(p, '{"level": 3}')).toBe(false);
  });

  it("arrays: items, minItems/maxItems, prefixItems", () => {
    const p = { type: "object", properties: { xs: { type: "array", items: { type: "integer" }, minItems: 1, maxItems: 2 }, pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } } };
    expect(argsAccepted(p, '{"xs": [1], "pair": ["a", 1.5]}')).toBe(true);
    expect(argsAccepted(p, '{"xs": [1, 2]}')).toBe(true);
    expect(argsAccepted(p, '{"xs": []}')).toBe(false);
    expect(argsAccepted(p, '{"xs": [1, 2, 3]}')).toBe(false);
    expect(argsAccepted(p, '{"pair": [1.5, "a"]}')).toBe(false);
  });

  it("strings: minLength/maxLength and escapes", () => {
    const p = { type: "object", properties: { s: { type: "string", minLength: 2, maxLength: 3 } }, required: ["s"] };
    expect(argsAccepted(p, '{"s": "ab"}')).toBe(true);
    expect(argsAccepted(p, '{"s": "a\\n"}')).toBe(true);
    expect(argsAccepted(p, '{"s": "a"}')).toBe(false);
    expect(argsAccepted(p, '{"s": "abcd"}')).toBe(false);
  });

  it("properties in declared order, optional ones skipped; additionalProperties", () => {
    const closed = { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" }, c: { type: "integer" } } };
    expect(argsAccepted(closed, "{}")).toBe(true);
    expect(argsAccepted(closed, '{"b": 1}')).toBe(true);
    expect(argsAccepted(closed, '{"a": 1, "c": 3}')).toBe(true);
    expect(argsAccepted(closed, '{"c": 3, "a": 1}')).toBe(false);
    expect(argsAccepted(closed, '{"a": 1, "z": 2}')).toBe(false);
    const open = { ...closed, additionalProperties: { type: "string" } };
    expect(argsAccepted(open, '{"a": 1, "z": "x"}')).toBe(true);
    expect(argsAccepted(open, '{"z": "x"}')).toBe(true);
    expect(argsAccepted(open, '{"a": 1, "z": 2}')).toBe(false);
  });

  it("a missing or empty schema is an empty object; `{}` as a value schema is any value", () => {
    expect(argsAccepted(undefined, "{}")).toBe(true);
    expect(argsAccepted(undefined, '{"a": 1}')).toBe(false);
    const p = { type: "object", properties: { x: {}, meta: { type: "object" } }, required: ["x"] };
    expect(argsAccepted(p, '{"x": {"deep": [1, null, "s"]}}')).toBe(true);
    // `{"type": "object"}` without properties is any object.
    expect(argsAccepted(p, '{"x": 1, "meta": {"k": [true], "n": 2}}')).toBe(true);
    expect(argsAccepted(p, '{"x": 1, "meta": [1]}')).toBe(false);
  });

  it("allOf of objects is merged; a float literal from JSON input (PyFloat) prints as 1.0", () => {
    const p = readJson('{"type": "object", "allOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]}, {"properties": {"b": {"const": 1.0}}}]}');
    expect(argsAccepted(p, '{"a": 1, "b": 1.0}')).toBe(true);
    expect(argsAccepted(p, '{"b": 1.0}')).toBe(false);
  });
});

describe("formats without a grammar", () => {
  it("throw a ChatwireError naming the formats that have one", () => {
    // Every registered format has one today; a description that declares none stands in.
    const declared = { ...getFormat("hermes"), grammar: { unavailable: "declared by the description under test" } };
    expect(() => buildGbnf(declared, { tools: [WEATHER] })).toThrow(ChatwireError);
    expect(() => buildGbnf(declared, { tools: [WEATHER] })).toThrow(/no grammar for format "hermes": declared by the description under test/);
    expect(grammarFormats()).toEqual(expect.arrayContaining(["hermes", "qwen3-coder", "llama3-json", "mistral", "json-block", "pythonic", "harmony", "muse-glimmer"]));
  });

  it("a named tool_choice must name a declared tool", () => {
    expect(() => buildGbnf("hermes", { tools: [WEATHER], tool_choice: { type: "function", function: { name: "nope" } } })).toThrow(/tool_choice/);
  });
});

describe("--kind json-schema", () => {
  const ajv = new Ajv({ strict: false });
  const tools = [
    WEATHER,
    {
      type: "function",
      function: {
        name: "tree",
        parameters: { type: "object", properties: { n: { $ref: "#/$defs/node" } }, required: ["n"], $defs: { node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } } } },
      },
    },
  ];

  it("a oneOf with one call object per tool; $defs moved to the root", () => {
    const schema = buildToolJsonSchema({ tools });
    expect((schema.oneOf as unknown[]).length).toBe(2);
    expect(schema.anyOf).toBeUndefined();
    expect(Object.keys(schema.$defs as object)).toEqual(["tree.node"]);
    const validate = ajv.compile(schema);
    expect(validate({ name: "get_weather", arguments: { city: "Oslo", unit: "c" } })).toBe(true);
    expect(validate({ name: "tree", arguments: { n: { kids: [{ kids: [] }] } } })).toBe(true);
    expect(validate({ name: "get_weather", arguments: { unit: "c" } })).toBe(false);
    expect(validate({ name: "tree", arguments: { n: { kids: [1] } } })).toBe(false);
    expect(validate({ name: "other", arguments: {} })).toBe(false);
  });

  it("a named tool_choice gives that call's schema alone; none has nothing to describe", () => {
    const schema = buildToolJsonSchema({ tools, tool_choice: { type: "function", function: { name: "get_weather" } } });
    expect(schema.oneOf).toBeUndefined();
    expect(schema.properties).toMatchObject({ name: { const: "get_weather" } });
    expect(() => buildToolJsonSchema({ tools, tool_choice: "none" })).toThrow(ChatwireError);
  });
});

describe("chatwire grammar", () => {
  const cli = (argv: string[]) => runCli(argv);
  const dir = mkdtempSync(join(tmpdir(), "chatwire-grammar-"));
  const requestFile = join(dir, "request.json");
  writeFileSync(requestFile, JSON.stringify({ messages: [{ role: "user", content: "Weather in Oslo?" }], tools: [WEATHER] }));
  const template = (name: string) => join(FIXTURES, "templates", `${name}.jinja`);

  it("prints the GBNF of the template's format; a prompt that opened <think> starts inside reasoning", async () => {
    const r = await cli(["grammar", "--template", template("Qwen3-Coder"), "--request", requestFile]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# chatwire grammar for format qwen3-coder/);
    expect(r.stdout).toContain('"<function=" "get_weather" ">" "\\n"');
    const qwen35 = await cli(["grammar", "--template", template("Qwen3.5-4B"), "--request", requestFile]);
    expect(qwen35.stdout).toMatch(/^root ::= reasoning answer$/m);
    expect(qwen35.stdout).toMatch(/^reasoning ::= reasoning-text "<\/think>"$/m);
  });

  it("a template without tool support gets the json-block grammar of the polyfill", async () => {
    const r = await cli(["grammar", "--template", template("google-gemma-2-2b-it"), "--request", requestFile]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# chatwire grammar for format json-block/);
  });

  it("--kind json-schema prints the call schema; bad input is a one-line error", async () => {
    const r = await cli(["grammar", "--template", template("Qwen3-Coder"), "--request", requestFile, "--kind", "json-schema"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).properties.name).toEqual({ const: "get_weather" });
    const muse = await cli(["grammar", "--template", template("muse-glimmer"), "--request", requestFile]);
    expect(muse.code).toBe(0);
    expect(muse.stdout).toContain('"<atem:function_calls>"');
    const kind = await cli(["grammar", "--format", "hermes", "--request", requestFile, "--kind", "lark"]);
    expect(kind.stderr).toMatch(/^chatwire: usage: --kind must be gbnf, json-schema or structural-tag/);
  });
});

describe("text without markers", () => {
  // Overlapping markers (a prefix of one is a suffix of another) are where a naive rule goes wrong.
  const markerSets = [["<tool_call>"], ["abab", "aab"], ["[", "<|x|>"], ["\n</p>"], ["aa", "ba", "b]"]];
  for (const markers of markerSets) {
    it(`${JSON.stringify(markers)}: random texts are accepted exactly when no marker occurs`, () => {
      const builder = new GbnfBuilder();
      const start = textWithout(builder, "text", markers);
      builder.add("root", start);
      const r = new GbnfRecognizer(builder.toString());
      // (whitespace is not in these alphabets, so only the markers decide)
      const alphabet = [...new Set([...markers.join(""), "z"])];
      const random = seededRandom(markers.length * 7919);
      let accepted = 0;
      for (let n = 0; n < 300; n++) {
        const length = Math.floor(random() * 12);
        let text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
        if (random() < 0.3) {
          // Plant a marker, so long markers are tested too.
          const at = Math.floor(random() * (text.length + 1));
          text = text.slice(0, at) + markers[Math.floor(random() * markers.length)] + text.slice(at);
        }
        const clean = !markers.some((m) => text.includes(m));
        expect(r.accepts(text), JSON.stringify(text)).toBe(clean);
        if (clean) accepted++;
      }
      expect(accepted).toBeGreaterThan(10);
      expect(accepted).toBeLessThan(300);
    });
  }
});

describe("the test recogniser itself", () => {
  it("reads llama.cpp GBNF: literals with escapes, classes, groups, repetitions, comments", () => {
    const r = new GbnfRecognizer('# comment\nroot ::= "a"{2,3} [^b-d\\]]? ("x" | y)+ "\\n\\"" \ny ::= [\\x41-\\x43] | "é"\n');
    expect(r.accepts('aax\n"')).toBe(true);
    expect(r.accepts('aaaeAé\n"')).toBe(true);
    expect(r.accepts('aaBCx\n"')).toBe(true);
    expect(r.accepts('ax\n"')).toBe(false); // {2,3}: too few a
    expect(r.accepts('aaaaax\n"')).toBe(false); // three a, one more from the class, then a fifth
    expect(r.accepts('aabx\n"')).toBe(false); // b is excluded by the range
    expect(r.accepts('aa]x\n"')).toBe(false); // so is the escaped ]
    expect(r.accepts('aax\n')).toBe(false); // the literal's escaped quote is missing
    expect(r.accepts('aa\n"')).toBe(false); // + needs one
  });

  it("rejects what llama.cpp rejects: unknown escapes and undefined rules", () => {
    expect(() => new GbnfRecognizer('root ::= "\\-"')).toThrow(/unknown escape/);
    expect(() => new GbnfRecognizer("root ::= missing")).toThrow(/not defined/);
  });
});
