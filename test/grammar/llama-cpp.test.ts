/**
 * llama.cpp's own grammar parser (node-llama-cpp, pinned 3.21.1, CPU build, no model) accepts every
 * grammar chatwire emits: every format with a grammar, under every tool_choice, with and without
 * parallel calls and an opened reasoning block, for tools with rich schemas. `createGrammar` throws on
 * a parse error. The JSON Schema kind is checked through node-llama-cpp's own JSON Schema converter:
 * several tools must stay several tools (a root anyOf came out as "only null").
 */
import { getLlama, type Llama } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { buildGbnf, buildToolJsonSchema, grammarFormats } from "../../src/grammar/index.js";
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
        for (const promptSuffix of [undefined, "<think>\n", "[THINK]"]) {
          const grammar = buildGbnf(format, request, promptSuffix === undefined ? {} : { promptSuffix });
          await expect(llama.createGrammar({ grammar }), `${format} ${variant}`).resolves.toBeDefined();
          // Our own recogniser reads the same text (it is what the sampling tests rely on).
          expect(() => new GbnfRecognizer(grammar)).not.toThrow();
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(15);
    });
  }

  it("a broken grammar is rejected (the check can fail)", async () => {
    await expect(llama.createGrammar({ grammar: 'root ::= "a" undefined-rule' })).rejects.toThrow();
  });
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
