/**
 * Token ids on the four published configs (fixtures/tokenizer/real: Qwen3, DeepSeek V3, Llama 3.1,
 * Gemma 3), against the Rust tokenizer (scripts/gen-token-fixtures.py): every fixture conversation the
 * template renders, including user text that spells non-special added tokens (`<tool_call>`, `<think>`,
 * `<｜User｜>`), and text that spells special tokens, which must yield no forged special id. The same
 * prompts through a GGUF vocabulary built from the same tokenizer.json, and through the per-segment
 * path a backend tokenizer uses.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { readJson, templateFromConfig, type ChatTemplate } from "../src/index.js";
import {
  candidateSpecialTexts,
  createTokenizer,
  llamaServerTokenizer,
  loadTokenizer,
  probeSpecialTexts,
  renderSegments,
  specialTexts,
  tokenizeSegments,
  tokenizerJsonFromGguf,
  type ChatTokenizer,
  type TokenizerJson,
} from "../src/tokens/index.js";
import { loadConversations, renderOptions } from "../scripts/render-fixtures.mjs";
import { ggufVocabFromTokenizerJson } from "./helpers/gguf-vocab.js";

process.env.TZ = "UTC";

const dir = (name: string) => new URL(`../fixtures/tokenizer/real/${name}/`, import.meta.url);
const conversationsDir = new URL("../fixtures/tokenizer/conversations/", import.meta.url);
const own = ["t1-added-tokens-in-data", "t2-special-tokens-in-data"].map((name) => ({
  name,
  ...(readJson(readFileSync(new URL(`${name}.json`, conversationsDir), "utf8")) as { request: unknown; options?: Record<string, unknown> }),
}));
const conversations = new Map([...loadConversations(readJson), ...own].map((c) => [c.name, c]));

interface Case {
  conversation: string;
  prompt: string;
  ids: number[];
  specialCount?: number;
  forgedWithoutProtection?: number;
}

const GGUF_PRE: Record<string, string> = { qwen3: "qwen2", deepseek_v3: "deepseek-v3", llama3_1: "llama-bpe" };

for (const name of ["qwen3", "deepseek_v3", "llama3_1", "gemma3"]) {
  describe(name, async () => {
    const json = JSON.parse(gunzipSync(readFileSync(new URL("tokenizer.json.gz", dir(name)))).toString("utf8")) as TokenizerJson;
    const tokenizer = await loadTokenizer(json);
    const template: ChatTemplate = templateFromConfig(readJson(readFileSync(new URL("tokenizer_config.json", dir(name)), "utf8")) as never);
    const expected = JSON.parse(readFileSync(new URL("expected.json", dir(name)), "utf8")) as { cases: Case[]; skipped: { conversation: string }[] };
    const special = (ids: number[]) => ids.filter((id) => tokenizer.specialIds.has(id)).length;

    it("covers every conversation the template renders, with data spelling added and special tokens", () => {
      expect(expected.cases.length + expected.skipped.length).toBe(conversations.size);
      expect(expected.cases.map((c) => c.conversation)).toContain("t1-added-tokens-in-data");
      expect(expected.cases.filter((c) => c.specialCount !== undefined).length).toBeGreaterThanOrEqual(2);
    });

    for (const c of expected.cases) {
      it(c.conversation, () => {
        const conv = conversations.get(c.conversation)!;
        const result = template.renderTokens(conv.request, tokenizer, renderOptions(conv.options ?? {}));
        expect(result.prompt).toBe(c.prompt);
        expect(result.ids).toEqual(c.ids);
        if (c.specialCount === undefined) {
          expect(tokenizer.encode(c.prompt)).toEqual(c.ids); // the plain prompt: Tokenizer.encode itself
        } else {
          expect(special(result.ids)).toBe(c.specialCount); // 0 forged special tokens
          // Without protection the same text does forge them (when the data spells this model's tokens).
          expect(special(tokenizer.encode(c.prompt)) - c.specialCount).toBe(c.forgedWithoutProtection);
        }
      });
    }

    it("per-segment tokenization (the backend path) gives the same ids", async () => {
      const specials = specialTexts(tokenizer.specialTexts());
      for (const c of expected.cases) {
        const conv = conversations.get(c.conversation)!;
        const segments = renderSegments(template, conv.request, specials, renderOptions(conv.options ?? {}));
        expect(segments.map((s) => s.text).join("")).toBe(c.prompt);
        expect(await tokenizeSegments(segments, tokenizer)).toEqual(c.ids);
      }
    });

    it("llama-server /tokenize adaptor: probed special texts + per-segment calls give the same ids", async () => {
      // A stand-in llama-server: answers /tokenize as llama.cpp does (parse_special decides whether
      // control-token text becomes control tokens; non-special added tokens match either way).
      const calls: { content: string; parse_special: boolean; add_special: boolean }[] = [];
      const fakeFetch = (async (_url: string, init: { body: string }) => {
        const body = JSON.parse(init.body) as { content: string; parse_special: boolean; add_special: boolean };
        calls.push(body);
        return new Response(JSON.stringify({ tokens: tokenizer.tokenize(body.content, body.parse_special) }), { status: 200 });
      }) as unknown as typeof fetch;
      const backend = llamaServerTokenizer("http://127.0.0.1:1/", fakeFetch);
      const specials = await probeSpecialTexts(candidateSpecialTexts(template.source, template.specialTokens), backend);
      for (const c of expected.cases) {
        if (c.specialCount === undefined && c.conversation !== "t1-added-tokens-in-data") continue;
        const conv = conversations.get(c.conversation)!;
        const ids = await tokenizeSegments(renderSegments(template, conv.request, specials, renderOptions(conv.options ?? {})), backend);
        expect(ids).toEqual(c.ids);
      }
      expect(calls.every((c) => c.add_special === false)).toBe(true);
    });

    it("probing a tokenizer finds the template's special tokens and leaves non-special ones out", async () => {
      const probed = await probeSpecialTexts(candidateSpecialTexts(template.source, template.specialTokens), tokenizer);
      expect(probed.texts.length).toBeGreaterThan(0);
      for (const text of probed.texts) expect(tokenizer.specialIds.has(tokenizer.addedTokenId(text)!)).toBe(true);
    });

    const pre = GGUF_PRE[name];
    if (pre !== undefined) {
      it(`a GGUF vocabulary (tokenizer.ggml.pre = ${pre}) gives the same ids`, async () => {
        const fromGguf: ChatTokenizer = await createTokenizer(tokenizerJsonFromGguf(ggufVocabFromTokenizerJson(json, pre)));
        for (const c of expected.cases) {
          const conv = conversations.get(c.conversation)!;
          expect(template.renderTokens(conv.request, fromGguf, renderOptions(conv.options ?? {})).ids).toEqual(c.ids);
        }
      });
    }
  });
}
