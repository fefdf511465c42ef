/**
 * The server keeps each request's grammar by what buildGbnf reads (src/server/request-grammar.ts): a
 * kept grammar must be exactly the one built afresh, for requests that differ in any of those parts,
 * asked in any order, including integral floats (`1.0`, read as PyFloat) next to integers.
 */
import { describe, expect, it } from "vitest";
import { buildGbnf, buildLazyGbnf } from "../src/grammar/index.js";
import { getFormat } from "../src/formats/index.js";
import { freezeDeep } from "../src/jinja/index.js";
import { readJson } from "../src/request/read-json.js";
import { readSharedJson } from "../src/request/read-shared-json.js";
import { requestGrammars } from "../src/server/request-grammar.js";
import { loadTemplate } from "../src/template/index.js";

const tool = (name: string, parameters: string): string => `{"type": "function", "function": {"name": "${name}", "parameters": ${parameters}}}`;
const WEATHER = tool("get_weather", '{"type": "object", "properties": {"city": {"type": "string"}, "unit": {"enum": ["c", "f"]}}, "required": ["city"]}');
const FLOAT = tool("f", '{"type": "object", "properties": {"x": {"enum": [1.0, 2]}}}');
const INT = tool("f", '{"type": "object", "properties": {"x": {"enum": [1, 2]}}}');
const MARKED = tool("f", '{"type": "object", "properties": {"x": {"enum": ["\\u00001", 2]}}}');

const bodies = [
  `{"tools": [${WEATHER}]}`,
  `{"tools": [${WEATHER}], "tool_choice": "required"}`,
  `{"tools": [${WEATHER}], "parallel_tool_calls": false}`,
  `{"tools": [${WEATHER}], "tool_choice": {"type": "function", "function": {"name": "get_weather"}}}`,
  `{"tools": [${FLOAT}]}`,
  `{"tools": [${INT}]}`,
  `{"tools": [${MARKED}]}`,
  `{"tools": [${WEATHER}, ${INT}], "tool_choice": "required"}`,
];
const suffixes = ["<|im_start|>assistant\n", "<|im_start|>assistant\n<think>\n"];

describe("the server's grammar cache", () => {
  it("gives exactly the grammar built afresh, whatever was asked before", async () => {
    const template = await loadTemplate("qwen3");
    const grammars = requestGrammars(template, undefined);
    const order = [...bodies.keys(), ...[...bodies.keys()].reverse(), ...bodies.keys()];
    const seen = new Set<string>();
    for (const i of order) {
      for (const promptSuffix of suffixes) {
        const body = readSharedJson(bodies[i]!) as Record<string, unknown>;
        const fresh = buildGbnf("hermes", body, { promptSuffix, templateSource: template.source });
        expect(grammars.full({ body, format: "hermes", output: getFormat("hermes"), promptSuffix })).toBe(fresh);
        expect(grammars.lazy({ body, format: "hermes", output: getFormat("hermes"), promptSuffix })).toEqual(buildLazyGbnf("hermes", body, { promptSuffix, templateSource: template.source }));
        seen.add(fresh);
      }
    }
    // The requests really differ in what the grammar says (else the check above proves little).
    expect(seen.size).toBeGreaterThanOrEqual(12);
  });

  it("builds no grammar for a request it refuses, each time", async () => {
    const template = await loadTemplate("qwen3");
    const lines: string[] = [];
    const grammar = requestGrammars(template, (line) => lines.push(line)).full;
    const body = readSharedJson(`{"tools": [${WEATHER}], "tool_choice": {"type": "function", "function": {"name": "nope"}}}`) as Record<string, unknown>;
    expect(grammar({ body, format: "hermes", output: getFormat("hermes"), promptSuffix: "" })).toBeUndefined();
    expect(grammar({ body, format: "hermes", output: getFormat("hermes"), promptSuffix: "" })).toBeUndefined();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/no grammar for this request.*tool_choice/);
  });

  it("tells apart frozen tool lists kept by identity (a short id each) from one another and from plain ones, whatever their text", async () => {
    const template = await loadTemplate("qwen3");
    const grammars = requestGrammars(template, undefined);
    const lists = [`[${WEATHER}]`, `[${INT}]`, `[${FLOAT}]`, `[${WEATHER}, ${INT}]`];
    // Frozen lists (each a new identity, some of equal text), plain ones, and tool_choice / parallel_tool_calls
    // strings that look like an id (`~0`): each request's grammar must be the one its own tools give.
    const requests: Record<string, unknown>[] = [];
    for (let round = 0; round < 3; round++) {
      lists.forEach((list, i) => {
        requests.push({ tools: freezeDeep(readJson(list)) });
        requests.push({ tools: readJson(list) });
        requests.push({ tools: freezeDeep(readJson(list)), tool_choice: i % 2 === 0 ? "required" : "auto", parallel_tool_calls: `~${i}` });
        requests.push({ tools: freezeDeep(readJson(lists[(i + 1) % lists.length]!)), parallel_tool_calls: `~${round}` });
      });
    }
    for (const body of requests) {
      const fresh = buildGbnf("hermes", body, { promptSuffix: "", templateSource: template.source });
      expect(grammars.full({ body, format: "hermes", output: getFormat("hermes"), promptSuffix: "" }), JSON.stringify(body)).toBe(fresh);
    }
  });
});
