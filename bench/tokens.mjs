/**
 * Token-id benchmark (issue 9), against the built package: a warm `renderTokens` (render with
 * provenance + encode) next to @huggingface/tokenizers' own `encode` of the same prompt and a plain
 * `render`, on the 21-tool agent request with the published Qwen3 config (fixtures/tokenizer/real);
 * plus the one-time cost of loadTokenizer for Qwen3 (11 MB tokenizer.json) and Gemma 3 (33 MB).
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { gunzipSync } from "node:zlib";
import { Tokenizer } from "@huggingface/tokenizers";
import { AGENT_REQUEST_TEXT } from "./workload.mjs";
import { measure } from "./render-compare.mjs";

const real = (name, file) => new URL(`../fixtures/tokenizer/real/${name}/${file}`, import.meta.url);
const tokenizerJson = (name) => JSON.parse(gunzipSync(readFileSync(real(name, "tokenizer.json.gz"))).toString("utf8"));

export async function runTokensBench({ budgetMs = 150 } = {}) {
  const lib = await import(new URL("../dist/index.js", import.meta.url).href);
  console.log("\n== chatwire token-id benchmark ==");
  for (const name of ["qwen3", "gemma3"]) {
    const json = tokenizerJson(name);
    const t0 = performance.now();
    await lib.loadTokenizer(json);
    console.log(`loadTokenizer ${name} (parsed JSON -> encoder, once per process): ${(performance.now() - t0).toFixed(0)} ms`);
  }
  const json = tokenizerJson("qwen3");
  const tokenizer = await lib.loadTokenizer(json);
  const template = lib.templateFromConfig(lib.readJson(readFileSync(real("qwen3", "tokenizer_config.json"), "utf8")));
  const request = lib.readJson(AGENT_REQUEST_TEXT);
  const prompt = template.render(request);
  const hf = new Tokenizer(json, {});
  const hfIds = hf.encode(prompt, { add_special_tokens: false }).ids;
  const ours = template.renderTokens(request, tokenizer);
  if (JSON.stringify(ours.ids) !== JSON.stringify(hfIds)) console.log("note: ids differ from @huggingface/tokenizers' encode (its added-token matching is not the Rust one)");
  // A few calls first: the JIT warms each path (measure itself warms with one call).
  for (let i = 0; i < 5; i++) template.renderTokens(request, tokenizer, { assistantMask: true });
  const render = measure(() => template.render(request), budgetMs);
  const encode = measure(() => hf.encode(prompt, { add_special_tokens: false }), budgetMs);
  const warm = measure(() => template.renderTokens(request, tokenizer), budgetMs);
  const mask = measure(() => template.renderTokens(request, tokenizer, { assistantMask: true }), budgetMs);
  console.log(`agent request on Qwen3 (${prompt.length} chars, ${ours.ids.length} tokens), ms per call:`);
  console.log(`  render only                         ${render.toFixed(3)}`);
  console.log(`  @huggingface/tokenizers encode      ${encode.toFixed(3)}`);
  console.log(`  renderTokens (warm)                 ${warm.toFixed(3)}  = ${(warm / (render + encode)).toFixed(2)}x (render + hf encode)`);
  console.log(`  renderTokens + offsets/mask         ${mask.toFixed(3)}`);
}
