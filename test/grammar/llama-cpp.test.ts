/**
 * llama.cpp's own grammar parser (node-llama-cpp, pinned 3.21.1, CPU build, no model) accepts every
 * grammar chatwire emits: every format with a grammar, under every tool_choice, with and without
 * parallel calls and an opened reasoning block, for tools with rich schemas. `createGrammar` throws on
 * a parse error. The JSON Schema kind is checked through node-llama-cpp's own JSON Schema converter:
 * several tools must stay several tools (a root anyOf came out as "only null").
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getLlama, type Llama } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { buildGbnf, buildLazyGbnf, buildToolJsonSchema, gbnfForTemplate, grammarFormats, grammarUnavailable } from "../../src/grammar/index.js";
import { loadTemplate } from "../../src/template/index.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";
import { RICH_TOOLS, REQUEST_VARIANTS } from "./tools.js";

let llama: Llama;
beforeAll(async () => {
  llama = await getLlama({ gpu: false, build: "never" });
}, 120_000);

describe("llama.cpp parses every emitted GBNF grammar", () => {
  for (const format of grammarFormats()) {
    it(format, async () => {
      let checked = 0;
      for (const [variant, request] of Object.entries(REQUEST_VARIANTS(RICH_TOOLS))) {
        // The last two: gpt-oss's and Functionary v3.2's generation prompts (the output starts in a header).
        for (const promptSuffix of [undefined, "<think>\n", "[THINK]", "<|start|>assistant", ">>>"]) {
          const grammar = buildGbnf(format, request, promptSuffix === undefined ? {} : { promptSuffix });
          await expect(llama.createGrammar({ grammar }), `${format} ${variant}`).resolves.toBeDefined();
          // Our own recogniser reads the same text (it is what the sampling tests rely on).
          expect(() => new GbnfRecognizer(grammar)).not.toThrow();
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(25);
    });
  }

  it("every lazy grammar (tool_choice auto), and its trigger patterns compile as ECMAScript", async () => {
    for (const format of grammarFormats()) {
      for (const request of [{ tools: RICH_TOOLS }, { tools: RICH_TOOLS, parallel_tool_calls: false }]) {
        for (const promptSuffix of [undefined, "<think>\n"]) {
          const lazy = buildLazyGbnf(format, request, promptSuffix === undefined ? {} : { promptSuffix });
          // Functionary v3.2 has none: its first call, in the header the prompt opened, has no marker.
          if (lazy === undefined) continue;
          await expect(llama.createGrammar({ grammar: lazy.grammar }), format).resolves.toBeDefined();
          for (const t of lazy.triggers) if (t.kind === "pattern-full") expect(() => new RegExp(t.pattern), `${format}: ${t.pattern}`).not.toThrow();
        }
      }
    }
  });

  it("a broken grammar is rejected (the check can fail)", async () => {
    await expect(llama.createGrammar({ grammar: 'root ::= "a" undefined-rule' })).rejects.toThrow();
  });
});

describe("every corpus template gets a grammar llama.cpp parses, or a reason", () => {
  const dir = join(FIXTURES, "templates");
  const special = JSON.parse(readFileSync(join(dir, "special-tokens.json"), "utf8")) as {
    default: Record<string, string>;
    templates: Record<string, Record<string, string>>;
  };
  const request = { messages: [{ role: "user", content: "Weather in Oslo?" }], tools: RICH_TOOLS };
  it("one grammar per template (json-block for templates without tools), each loaded by llama.cpp", async () => {
    const withGrammar = new Set<string>();
    const without = new Map<string, string>();
    let templates = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".jinja"))) {
      const name = file.replace(/\.jinja$/, "");
      const template = await loadTemplate({ chat_template: readFileSync(join(dir, file), "utf8"), ...(special.templates[name] ?? special.default) });
      const format = template.formatFor(request);
      templates++;
      let grammar: string;
      try {
        grammar = gbnfForTemplate(template, request);
      } catch (err) {
        // The only refusal is a format the emitter cannot write, and it says why.
        expect(err, file).toBeInstanceOf(ChatwireError);
        expect(String((err as Error).message)).toContain(grammarUnavailable(format) ?? "(format has a grammar)");
        without.set(format, grammarUnavailable(format)!);
        continue;
      }
      await expect(llama.createGrammar({ grammar }), file).resolves.toBeDefined();
      withGrammar.add(format);
    }
    expect(templates).toBeGreaterThanOrEqual(60);
    // Formats in the corpus that have a grammar, and those that do not (with the reason).
    expect([...withGrammar].length).toBeGreaterThanOrEqual(20);
    expect([...without.keys()].sort()).toEqual([]);
  }, 120_000);
});

describe("the JSON Schema kind through node-llama-cpp's converter", () => {
  it("several tools stay several call shapes", async () => {
    const tools = [RICH_TOOLS[0]!, RICH_TOOLS[3]!];
    const schema = buildToolJsonSchema({ tools });
    const grammar = await llama.createGrammarForJsonSchema(schema as never);
    const text = grammar.grammar;
    for (const tool of tools) expect(text).toContain(tool.function.name);
    const r = new GbnfRecognizer(text);
    // node-llama-cpp's converter writes every declared property (it has no optional members) and ends
    // the document with newlines.
    const end = "\n\n\n\n";
    expect(r.accepts(`{"name": "get_weather","arguments": {"city": "Oslo","days": 2,"unit": "c","precise": true}}${end}`)).toBe(true);
    expect(r.accepts(`{"name": "get_time","arguments": {}}${end}`)).toBe(true);
    expect(r.accepts(`null${end}`)).toBe(false);
    // What the fix is about: the same branches under a root anyOf come out as "only null".
    const anyOf = await llama.createGrammarForJsonSchema({ anyOf: schema.oneOf } as never);
    expect(new GbnfRecognizer(anyOf.grammar).accepts(`null${end}`)).toBe(true);
  });
});

describe("llama.cpp's grammar engine reads gpt-oss's own output under the harmony grammar", () => {
  // What gpt-oss writes after `<|start|>assistant` (openai/harmony's docs), under the grammar the server
  // sends for the gpt-oss template; `_testText` is the pinned node-llama-cpp's hook: every code point
  // accepted and the grammar complete at the end.
  const WEATHER = { type: "function", function: { name: "get_weather", description: "Weather in a city.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };
  const ask = (tool_choice: unknown) => ({ messages: [{ role: "user", content: "Weather in Paris?" }], tools: [WEATHER], tool_choice });
  const accepts = (g: unknown, text: string): boolean => (g as { _testText(text: string): boolean })._testText(text);
  const analysis = "<|channel|>analysis<|message|>User wants Paris weather.<|end|><|start|>assistant";
  const call = '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}';
  const final = "<|channel|>final<|message|>It is sunny in Paris.";

  it("auto, required and none, each accepting what it allows and refusing the rest", async () => {
    const oss = await loadTemplate({ chat_template: readFileSync(join(FIXTURES, "templates", "openai-gpt-oss-120b.jinja"), "utf8") });
    const grammar = async (choice: unknown) => llama.createGrammar({ grammar: gbnfForTemplate(oss, ask(choice)) });
    const auto = await grammar("auto");
    expect(accepts(auto, `${analysis}${call}<|call|>`)).toBe(true);
    expect(accepts(auto, `${analysis}${call}`)).toBe(true);
    expect(accepts(auto, `${analysis}${final}<|return|>`)).toBe(true);
    expect(accepts(auto, final)).toBe(true);
    // A tool nobody declared, and arguments off the schema, are refused.
    expect(accepts(auto, `${analysis}${call.replace("get_weather", "get_time")}`)).toBe(false);
    expect(accepts(auto, `${analysis}${call.replace('"Paris"', "7")}`)).toBe(false);
    const required = await grammar("required");
    expect(accepts(required, `${analysis}${call}<|call|>`)).toBe(true);
    expect(accepts(required, `${analysis}${final}`)).toBe(false);
    const none = await grammar("none");
    expect(accepts(none, `${analysis}${final}<|return|>`)).toBe(true);
    expect(accepts(none, `${analysis}${call}`)).toBe(false);
  }, 60_000);
});
