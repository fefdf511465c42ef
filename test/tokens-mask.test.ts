/**
 * Assistant masks: `{% generation %}` spans and the token mask, against transformers'
 * apply_chat_template(return_assistant_tokens_mask=True, return_dict=True) with the Qwen3 and Gemma 3
 * tokenizers on a ChatML template with generation blocks (fixtures/tokenizer/generation). Plus the GGUF
 * file path: a real .gguf written from the small fixture tokenizer loads through loadTokenizer.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadTemplate, readJson } from "../src/index.js";
import { loadTokenizer, renderGeneration, type TokenizerJson } from "../src/tokens/index.js";
import { loadConversations, renderOptions } from "../scripts/render-fixtures.mjs";
import { ggufVocabFromTokenizerJson, writeGguf } from "./helpers/gguf-vocab.js";

const gen = (p: string) => new URL(`../fixtures/tokenizer/generation/${p}`, import.meta.url);
const source = readFileSync(gen("chatml-generation.jinja"), "utf8");
const cases = JSON.parse(readFileSync(gen("expected.json"), "utf8")) as { tokenizer: string; conversation: string; prompt: string; generation: [number, number][]; ids: number[]; assistantMask: number[] }[];
type Conv = Parameters<typeof renderOptions>[0] extends infer O ? { request: unknown; options?: O } : never;
const own = readJson(readFileSync(new URL("../fixtures/tokenizer/conversations/t1-added-tokens-in-data.json", import.meta.url), "utf8")) as Conv;
const conversations = new Map<string, Conv>(loadConversations(readJson).map((c) => [c.name, c as Conv]));
conversations.set("t1-added-tokens-in-data", own);

describe("assistant mask (transformers' return_assistant_tokens_mask)", async () => {
  const template = await loadTemplate({ chat_template: source });
  const tokenizers = new Map<string, Awaited<ReturnType<typeof loadTokenizer>>>();
  for (const name of new Set(cases.map((c) => c.tokenizer))) {
    const json = JSON.parse(gunzipSync(readFileSync(new URL(`../fixtures/tokenizer/real/${name}/tokenizer.json.gz`, import.meta.url))).toString("utf8")) as TokenizerJson;
    tokenizers.set(name, await loadTokenizer(json));
  }
  it("has cases with generated parts", () => {
    expect(cases.filter((c) => c.generation.length > 1).length).toBeGreaterThanOrEqual(2);
  });
  for (const c of cases) {
    it(`${c.tokenizer}: ${c.conversation}`, () => {
      const conv = conversations.get(c.conversation)!;
      const options = { ...renderOptions(conv.options ?? {}), polyfill: "never" as const };
      const spans = renderGeneration(template, conv.request, options);
      expect(spans.prompt).toBe(c.prompt);
      expect(spans.generation).toEqual(c.generation);
      const result = template.renderTokens(conv.request, tokenizers.get(c.tokenizer)!, { ...options, assistantMask: true });
      expect(result.ids).toEqual(c.ids);
      expect(result.generation).toEqual(c.generation);
      expect(result.assistantMask).toEqual(c.assistantMask);
    });
  }
});

describe("GGUF file", () => {
  it("a .gguf's own vocabulary tokenizes as its tokenizer.json does", async () => {
    const json = JSON.parse(readFileSync(new URL("../fixtures/tokenizer/tokenizer.json", import.meta.url), "utf8")) as TokenizerJson;
    const dir = mkdtempSync(join(tmpdir(), "chatwire-gguf-"));
    try {
      const file = join(dir, "model.gguf");
      writeGguf(file, { "general.architecture": "qwen2", ...ggufVocabFromTokenizerJson(json, "gpt-2") } as Record<string, string | string[] | number[]>);
      const fromFile = await loadTokenizer(file);
      const fromJson = await loadTokenizer(json);
      const prompt = "<|im_start|>user\nWhat does <tool_call> mean? naïve 東京 123456<|im_end|>\n<|im_start|>assistant\n";
      expect(fromFile.encode(prompt)).toEqual(fromJson.encode(prompt));
      expect(fromFile.specialIds.has(fromJson.addedTokenId("<|im_start|>")!)).toBe(true);
      expect(fromFile.specialIds.has(fromJson.addedTokenId("<tool_call>")!)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("an unsupported vocabulary is a typed error naming the key", async () => {
    const { tokenizerJsonFromGguf } = await import("../src/tokens/index.js");
    expect(() => tokenizerJsonFromGguf({ "tokenizer.ggml.model": "bert" })).toThrow(/tokenizer\.ggml\.model "bert"/);
    expect(() => tokenizerJsonFromGguf({ "tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": ["a"] })).toThrow(/tokenizer\.ggml\.scores/);
    expect(() => tokenizerJsonFromGguf({ "tokenizer.ggml.model": "gpt2", "tokenizer.ggml.pre": "nope" })).toThrow(/tokenizer\.ggml\.pre "nope"/);
  });
});
