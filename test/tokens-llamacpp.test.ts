/**
 * llama.cpp itself as the oracle for the GGUF and backend paths: the Qwen3 and Llama 3.1 vocabularies
 * written into vocabulary-only .gguf files (as llama.cpp's converter would) and loaded by llama.cpp
 * (node-llama-cpp, CPU, prebuilt). Its tokenization of each whole prompt (parse_special) equals the Rust
 * tokenizer's ids, and so does our per-segment path with llama.cpp as the backend tokenizer (special
 * texts probed from it), including prompts whose data spells special tokens.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { getLlama } from "node-llama-cpp";
import { readJson, templateFromConfig } from "../src/index.js";
import { candidateSpecialTexts, loadTokenizer, probeSpecialTexts, renderSegments, tokenizeSegments, type TextTokenizer, type TokenizerJson } from "../src/tokens/index.js";
import { loadConversations, loadTemplates, renderOptions } from "../scripts/render-fixtures.mjs";
import { ggufVocabFromTokenizerJson, spmVocabFromTokenizerJson, writeGguf } from "./helpers/gguf-vocab.js";

process.env.TZ = "UTC";

type Conv = { request: unknown; options?: Parameters<typeof renderOptions>[0] };
const conversations = new Map<string, Conv>(loadConversations(readJson).map((c) => [c.name, c as Conv]));
for (const name of ["t1-added-tokens-in-data", "t2-special-tokens-in-data"]) {
  conversations.set(name, readJson(readFileSync(new URL(`../fixtures/tokenizer/conversations/${name}.json`, import.meta.url), "utf8")) as Conv);
}
const dir = mkdtempSync(join(tmpdir(), "chatwire-llamacpp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });

for (const [name, pre, arch] of [["qwen3", "qwen2", "qwen2"], ["llama3_1", "llama-bpe", "llama"]] as const) {
  describe(`${name} through llama.cpp`, async () => {
    const real = (f: string) => new URL(`../fixtures/tokenizer/real/${name}/${f}`, import.meta.url);
    const json = JSON.parse(gunzipSync(readFileSync(real("tokenizer.json.gz"))).toString("utf8")) as TokenizerJson;
    const file = join(dir, `${name}.gguf`);
    const hp = { context_length: 4096, embedding_length: 64, block_count: 1, feed_forward_length: 64, "attention.head_count": 1, "attention.layer_norm_rms_epsilon": 1e-6 };
    writeGguf(file, { "general.architecture": arch, ...Object.fromEntries(Object.entries(hp).map(([k, v]) => [`${arch}.${k}`, v])), ...ggufVocabFromTokenizerJson(json, pre) } as never);
    const model = await llama.loadModel({ modelPath: file, vocabOnly: true });
    const backend: TextTokenizer = { tokenize: (text, parseSpecial) => model.tokenize(text, parseSpecial).map(Number) };
    const template = templateFromConfig(readJson(readFileSync(real("tokenizer_config.json"), "utf8")) as never);
    const cases = (JSON.parse(readFileSync(real("expected.json"), "utf8")) as { cases: { conversation: string; prompt: string; ids: number[]; specialCount?: number }[] }).cases;
    const specials = await probeSpecialTexts(candidateSpecialTexts(template.source, template.specialTokens), backend);
    const ours = await loadTokenizer(json);

    it("tokenizes each whole prompt as the Rust tokenizer does (data without special-token text)", () => {
      expect(cases.length).toBeGreaterThan(20);
      expect(specials.texts.length).toBeGreaterThan(0);
      for (const c of cases.filter((c) => c.specialCount === undefined)) expect(backend.tokenize(c.prompt, true), c.conversation).toEqual(c.ids);
    });

    it("per-segment ids through llama.cpp equal renderTokens', with 0 forged special tokens", async () => {
      for (const c of cases) {
        const conv = conversations.get(c.conversation)!;
        const ids = await tokenizeSegments(renderSegments(template, conv.request, specials, renderOptions(conv.options ?? {})), backend);
        if (c.conversation === "t1-added-tokens-in-data" && name === "qwen3") {
          // llama.cpp promotes Qwen's FIM markers (non-special in tokenizer.json) to control tokens at
          // load ("control-looking token ... will be overridden"), so `<|fim_prefix|>` in data stays
          // text there: the only difference, one token.
          const fim = ours.addedTokenId("<|fim_prefix|>")!;
          expect(c.ids.filter((id) => id === fim)).toHaveLength(1);
          expect(ids).not.toContain(fim);
          continue;
        }
        expect(ids, c.conversation).toEqual(c.ids);
      }
    });
  });
}

describe("a SentencePiece (llama) GGUF vocabulary: our SpmEncoder against llama.cpp's", async () => {
  const json = JSON.parse(readFileSync(new URL("../fixtures/tokenizer/tokenizer-metaspace.json", import.meta.url), "utf8")) as TokenizerJson;
  const file = join(dir, "spm.gguf");
  const arch = "llama";
  const hp = { context_length: 4096, embedding_length: 64, block_count: 1, feed_forward_length: 64, "attention.head_count": 1, "attention.layer_norm_rms_epsilon": 1e-6 };
  writeGguf(file, {
    "general.architecture": arch,
    ...Object.fromEntries(Object.entries(hp).map(([k, v]) => [`${arch}.${k}`, v])),
    ...spmVocabFromTokenizerJson(json),
    "tokenizer.ggml.add_bos_token": false,
  });
  const model = await llama.loadModel({ modelPath: file, vocabOnly: true });
  const ours = await loadTokenizer(file);
  const templates = loadTemplates().filter((t) => ["mistralai-Mistral-Nemo-Instruct-2407", "microsoft-Phi-3.5-mini-instruct"].includes(t.name));

  it("every fixture prompt of two SentencePiece-family templates gets llama.cpp's ids", async () => {
    const { loadTemplate } = await import("../src/index.js");
    let compared = 0;
    for (const tpl of templates) {
      const t = await loadTemplate({ chat_template: tpl.chat_template, bos_token: tpl.bos_token, eos_token: tpl.eos_token });
      for (const [name, conv] of conversations) {
        let prompt: string;
        try {
          prompt = t.render(conv.request, renderOptions(conv.options ?? {}));
        } catch {
          continue; // the template rejects this conversation
        }
        expect(ours.encode(prompt, { protect: "none" }), `${tpl.name} x ${name}`).toEqual(model.tokenize(prompt, true).map(Number));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
    expect(ours.encode("héllo  wörld 東京 \u{1F642}", { protect: "none" })).toEqual(model.tokenize("héllo  wörld 東京 \u{1F642}", true).map(Number));
  });
});
