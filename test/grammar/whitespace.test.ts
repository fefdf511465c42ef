/**
 * The whitespace bound is for structural positions only (between JSON tokens, around calls): what the
 * model writes (a string value, a raw code argument, free text) may hold any run of whitespace. Checked
 * with llama.cpp's own grammar engine (node-llama-cpp 3.21.1, `isTextCompatible`: every code point
 * accepted and the grammar complete at the end) on the grammars the server sends for real templates.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getLlama, type Llama, type LlamaGrammar } from "node-llama-cpp";
import { beforeAll, describe, expect, it } from "vitest";
import { gbnfForTemplate } from "../../src/grammar/index.js";
import { loadTemplate } from "../../src/template/index.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";

let llama: Llama;
beforeAll(async () => {
  llama = await getLlama({ gpu: false, build: "never" });
}, 120_000);

const WRITE_FILE = {
  type: "function",
  function: {
    name: "write_file",
    parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
  },
};
const request = { messages: [{ role: "user", content: "Write it." }], tools: [WRITE_FILE] };

async function serverGrammar(template: string): Promise<string> {
  const source = readFileSync(join(FIXTURES, "templates", `${template}.jinja`), "utf8");
  return gbnfForTemplate(await loadTemplate({ chat_template: source, eos_token: "<|im_end|>" }), request);
}

/** llama.cpp's verdict on a whole completion (the internal test hook of the pinned node-llama-cpp). */
function accepts(grammar: LlamaGrammar, text: string): boolean {
  return (grammar as unknown as { _testText(text: string): boolean })._testText(text);
}

const SPACES_40 = " ".repeat(40);
const CODE = `def main():\n    if True:\n${" ".repeat(30)}return 1\n`;

describe("long whitespace runs in what the model writes", () => {
  it("hermes (Qwen3): a JSON string of 40 spaces and a 30-space-indented code string", async () => {
    const text = await serverGrammar("Qwen-Qwen3-0.6B");
    const grammar = await llama.createGrammar({ grammar: text });
    const call = (content: string) => `<tool_call>\n{"name": "write_file", "arguments": {"path": "a.py", "content": ${JSON.stringify(content)}}}\n</tool_call>`;
    expect(accepts(grammar, call(SPACES_40))).toBe(true);
    expect(accepts(grammar, call(CODE))).toBe(true);
    // Free text before a call is the model's too.
    expect(accepts(grammar, `Here:${SPACES_40}done.\n${call("x")}`)).toBe(true);
    // The check can fail: a structural position keeps its bound (40 spaces between JSON tokens) ...
    expect(accepts(grammar, `<tool_call>\n{"name":${SPACES_40}"write_file", "arguments": {"path": "a.py", "content": "x"}}\n</tool_call>`)).toBe(false);
    // ... and a call of another tool is refused.
    expect(accepts(grammar, `<tool_call>\n{"name": "read_file", "arguments": {"path": "a.py", "content": "x"}}\n</tool_call>`)).toBe(false);
    expect(new GbnfRecognizer(text).accepts(call(CODE))).toBe(true);
  });

  it("qwen3-coder: a raw parameter value indented 30 spaces, and one of 40 spaces", async () => {
    const text = await serverGrammar("Qwen3-Coder");
    const grammar = await llama.createGrammar({ grammar: text });
    const call = (content: string) =>
      `<tool_call>\n<function=write_file>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\n${content}\n</parameter>\n</function>\n</tool_call>`;
    expect(accepts(grammar, call(CODE.trimEnd()))).toBe(true);
    expect(accepts(grammar, call(`x${SPACES_40}y`))).toBe(true);
    expect(accepts(grammar, call(`a\n</parameter>\nb`))).toBe(false);
    expect(new GbnfRecognizer(text).accepts(call(CODE.trimEnd()))).toBe(true);
  });
});
