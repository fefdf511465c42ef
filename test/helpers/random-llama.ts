/**
 * A one-layer Llama with random weights, written as a GGUF, for sampling tests on llama.cpp itself
 * (node-llama-cpp): over a byte-level vocabulary (the fixture tokenizer's byte tokens of printable
 * ASCII, space, tab and newline; no merges, so the model writes one character per token),
 * `<|im_end|>` as end of turn, and any extra marker tokens (user-defined: printed as their text).
 * Small on purpose: llama.cpp's grammar sampler checks every token of the vocabulary at every step.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TokenizerJson } from "../../src/tokens/index.js";
import { writeGguf, type GgufTensor } from "./gguf-vocab.js";
import { seededRandom } from "./rng.js";

export interface RandomLlama {
  file: string;
  /** Every token's text, by id. */
  tokens: string[];
}

export function randomLlamaFile(dir: string, markers: readonly string[] = []): RandomLlama {
  const json = JSON.parse(readFileSync(new URL("../../fixtures/tokenizer/tokenizer.json", import.meta.url), "utf8")) as TokenizerJson;
  // ASCII only: lone bytes of multi-byte characters would make invalid UTF-8 (each byte a character).
  const ascii = new Set([..."!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"].map((c) => c.codePointAt(0)!));
  const bytes = Object.entries((json.model as { vocab: Record<string, number> }).vocab)
    .filter(([t, id]) => id < 256 && (ascii.has(t.codePointAt(0)!) || ["Ġ", "ĉ", "Ċ"].includes(t)))
    .sort((a, b) => a[1] - b[1])
    .map(([t]) => t);
  const tokens = [...bytes, "<|im_end|>", ...markers];
  const vocab = {
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.pre": "qwen2",
    "tokenizer.ggml.tokens": tokens,
    // 1 normal, 3 control (end of turn), 4 user-defined (a marker printed as its text).
    "tokenizer.ggml.token_type": [...bytes.map(() => 1), 3, ...markers.map(() => 4)],
    "tokenizer.ggml.merges": [] as string[],
  };
  const n = tokens.length;
  const id = (t: string) => tokens.indexOf(t);
  const [embd, ff] = [64, 128];
  const random = seededRandom(20240601);
  // Small weights: logits near each other, so the sampler's choices are close to uniform.
  const tensor = (name: string, dims: number[], scale: number): GgufTensor => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = scale === 0 ? 1 : (random() - 0.5) * 2 * scale;
    return { name, dims, data };
  };
  const tensors = [
    tensor("token_embd.weight", [embd, n], 1),
    tensor("output_norm.weight", [embd], 0),
    tensor("output.weight", [embd, n], 0.05),
    tensor("blk.0.attn_norm.weight", [embd], 0),
    tensor("blk.0.attn_q.weight", [embd, embd], 0.2),
    tensor("blk.0.attn_k.weight", [embd, embd], 0.2),
    tensor("blk.0.attn_v.weight", [embd, embd], 0.2),
    tensor("blk.0.attn_output.weight", [embd, embd], 0.2),
    tensor("blk.0.ffn_norm.weight", [embd], 0),
    tensor("blk.0.ffn_gate.weight", [embd, ff], 0.2),
    tensor("blk.0.ffn_up.weight", [embd, ff], 0.2),
    tensor("blk.0.ffn_down.weight", [ff, embd], 0.2),
  ];
  const file = join(dir, `random-llama${markers.length > 0 ? "-markers" : ""}.gguf`);
  writeGguf(
    file,
    {
      "general.architecture": "llama",
      "llama.context_length": 1024,
      "llama.embedding_length": embd,
      "llama.block_count": 1,
      "llama.feed_forward_length": ff,
      "llama.attention.head_count": 4,
      "llama.attention.head_count_kv": 4,
      "llama.rope.dimension_count": embd / 4,
      "llama.attention.layer_norm_rms_epsilon": 1e-5,
      ...vocab,
      "tokenizer.ggml.bos_token_id": id("<|im_end|>"),
      "tokenizer.ggml.eos_token_id": id("<|im_end|>"),
      "tokenizer.ggml.add_bos_token": false,
    } as Record<string, string | number | boolean | string[] | number[]>,
    tensors,
  );
  return { file, tokens };
}
