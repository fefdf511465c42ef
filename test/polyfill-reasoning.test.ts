/**
 * A polyfilled template whose generation prompt opens reasoning: llama.cpp's DeepSeek-R1 template
 * (fixtures/templates/llama-cpp-deepseek-r1.jinja, see SOURCES.md) raises under Jinja2 when given
 * tools, so chatwire polyfills it with the json-block instruction, but the prompt still ends
 * `<｜Assistant｜><think>\n`. The completion's format is json-block with the template's reasoning
 * markers (outputFormat): the parse gives the reasoning as reasoning_content and the JSON block as the
 * call, one-shot and streamed, and the grammar allows the rest of the reasoning, then the block.
 */
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { emitGbnf } from "../src/grammar/gbnf-grammar.js";
import { buildLazyGbnf, gbnfForTemplate } from "../src/grammar/index.js";
import { foldDeltas } from "../src/parse/index.js";
import { loadTemplate, type ChatTemplate } from "../src/template/index.js";
import { derive } from "./grammar/derive.js";
import { GbnfSampler } from "./grammar/sampler.js";
import { GbnfRecognizer } from "./helpers/gbnf-recognizer.js";
import { randomPieces, seededRandom } from "./helpers/rng.js";

const special = JSON.parse(readFileSync(new URL("../fixtures/templates/special-tokens.json", import.meta.url), "utf8")) as { default: Record<string, string>; templates: Record<string, Record<string, string>> };
const REQUEST = { messages: [{ role: "user", content: "What time is it?" }], tools: [{ type: "function", function: { name: "get_time", parameters: { type: "object", properties: { zone: { type: "string" } } } } }] };
const COMPLETION = 'The user wants the time.\n</think>\n\n```json\n{"name": "get_time", "arguments": {}}\n```';

let template: ChatTemplate;
beforeAll(async () => {
  const source = readFileSync(new URL("../fixtures/templates/llama-cpp-deepseek-r1.jinja", import.meta.url), "utf8");
  template = await loadTemplate({ chat_template: source, ...(special.templates["llama-cpp-deepseek-r1"] ?? special.default) });
});

describe("json-block polyfill after a prompt that opened <think>", () => {
  it("is polyfilled, and its output format carries the template's reasoning markers", () => {
    expect(template.format).toBe("deepseek-r1");
    expect(template.formatFor(REQUEST)).toBe("json-block");
    expect(template.render(REQUEST).endsWith("<｜Assistant｜><think>\n")).toBe(true);
    const output = template.outputFormat(REQUEST);
    expect(output.regions.map((r) => r.start[0])).toEqual(["```json"]);
    expect(output.reasoning).toEqual([{ start: ["<think>"], end: ["</think>"] }]);
    // Without tools there is no polyfill: the template's own format.
    expect(template.outputFormat({ messages: REQUEST.messages }).id).toBe("deepseek-r1");
  });

  it("parses the reasoning as reasoning_content and the block as the call, one-shot and streamed", () => {
    const got = template.parse(COMPLETION, REQUEST);
    expect(got.errors).toEqual([]);
    expect(got.message.reasoning_content).toBe("The user wants the time.\n");
    expect(got.message.content).toBeNull();
    expect(got.message.tool_calls?.map((c) => [c.function.name, c.function.arguments])).toEqual([["get_time", "{}"]]);
    const random = seededRandom(7);
    for (let n = 0; n < 20; n++) {
      const parser = template.streamParser(REQUEST);
      const pieces = randomPieces(COMPLETION, 1 + Math.floor(random() * 8), random);
      const streamed = foldDeltas([...pieces.flatMap((p) => parser.push(p)), ...parser.end()]);
      expect({ ...streamed.message, tool_calls: streamed.message.tool_calls?.map((c) => c.function) }).toEqual({ ...got.message, tool_calls: got.message.tool_calls?.map((c) => c.function) });
    }
  });

  it("the grammar allows the rest of the reasoning, then the JSON block; samples parse as derived", () => {
    const grammar = gbnfForTemplate(template, REQUEST);
    const recognizer = new GbnfRecognizer(grammar);
    expect(recognizer.accepts(COMPLETION)).toBe(true);
    // Before the fix the grammar forced the block inside the open reasoning.
    expect(recognizer.accepts('```json\n{"name": "get_time", "arguments": {}}\n```')).toBe(false);
    const promptSuffix = template.render(REQUEST).slice(-200);
    const emitted = emitGbnf(template.outputFormat(REQUEST), REQUEST, { promptSuffix, templateSource: template.source });
    expect(emitted.text).toBe(grammar);
    const sampler = new GbnfSampler(emitted.text);
    const random = seededRandom(11);
    let withReasoning = 0;
    for (let n = 0; n < 24; n++) {
      const { text, tree } = sampler.sample(random, { wishes: ["<think>", "</think>", "```json", "```"], budget: 160 });
      const want = derive(text, tree, emitted.captures);
      const got = template.parse(text, REQUEST);
      expect(got.errors, text).toEqual([]);
      expect((got.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown })), text).toEqual(want.calls);
      // The parser drops a whitespace-only run between boundaries (src/parse/text-channel.ts).
      expect(got.message.reasoning_content ?? "", text).toBe(/^\s*$/.test(want.reasoning) ? "" : want.reasoning);
      if (want.reasoning !== "") withReasoning++;
    }
    expect(withReasoning).toBeGreaterThan(0);
  });

  it("the lazy grammar triggers only after </think>", () => {
    const promptSuffix = template.render(REQUEST).slice(-200);
    const lazy = buildLazyGbnf(template.outputFormat(REQUEST), REQUEST, { promptSuffix })!;
    expect(lazy.triggers).toEqual([{ kind: "pattern-full", pattern: "^[\\s\\S]*?(?:</think>)(?:(?!(?:<think>))[\\s\\S])*?(```json)[\\s\\S]*$" }]);
  });
});
