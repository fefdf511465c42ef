/**
 * The `tokenizer.ggml.*` metadata llama.cpp's converter (convert_hf_to_gguf.py, `_set_vocab_gpt2`)
 * writes for a Hugging Face byte-level BPE tokenizer.json: every id's token text, CONTROL (3) for
 * special added tokens, USER_DEFINED (4) for the other added tokens, NORMAL (1) for the rest, and the
 * merges as "a b" strings. Used to test the GGUF vocabulary path against the tokenizer.json path, and by
 * writeGguf to make a real file.
 */
import { writeFileSync } from "node:fs";
import type { GgufVocabMetadata, TokenizerJson } from "../../src/tokens/index.js";

export function ggufVocabFromTokenizerJson(json: TokenizerJson, pre: string): GgufVocabMetadata {
  const model = json.model as { vocab: Record<string, number>; merges: (string | [string, string])[] };
  let size = 0;
  for (const id of Object.values(model.vocab)) size = Math.max(size, id + 1);
  for (const t of json.added_tokens ?? []) size = Math.max(size, t.id + 1);
  const tokens = new Array<string>(size).fill("");
  const types = new Array<number>(size).fill(5); // UNUSED for holes
  for (const [text, id] of Object.entries(model.vocab)) {
    tokens[id] = text;
    types[id] = 1;
  }
  for (const t of json.added_tokens ?? []) {
    tokens[t.id] = t.content;
    types[t.id] = t.special === true ? 3 : 4;
  }
  tokens.forEach((t, i) => {
    if (types[i] === 5) tokens[i] = `[PAD${i}]`;
  });
  return {
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.pre": pre,
    "tokenizer.ggml.tokens": tokens,
    "tokenizer.ggml.token_type": types,
    "tokenizer.ggml.merges": model.merges.map((m) => (Array.isArray(m) ? m.join(" ") : m)),
  };
}

/** An F32 tensor for writeGguf: `dims` in GGUF order (the fastest-varying dimension first). */
export interface GgufTensor {
  name: string;
  dims: number[];
  data: Float32Array;
}

/**
 * A minimal GGUF v3 file holding `metadata` (strings, bools, uint32s, float32s, string arrays, int32 /
 * float32 arrays) and `tensors` (F32, each at a 32-byte aligned offset; none: a vocabulary-only file).
 */
export function writeGguf(file: string, metadata: Record<string, string | number | boolean | string[] | number[]>, tensors: readonly GgufTensor[] = []): void {
  const parts: Buffer[] = [];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    parts.push(b);
  };
  const u64 = (n: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(n));
    parts.push(b);
  };
  const str = (s: string) => {
    const b = Buffer.from(s, "utf8");
    u64(b.length);
    parts.push(b);
  };
  parts.push(Buffer.from("GGUF"));
  u32(3);
  u64(tensors.length);
  u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    str(key);
    if (typeof value === "boolean") {
      u32(7);
      parts.push(Buffer.from([value ? 1 : 0]));
    } else if (typeof value === "string") {
      u32(8);
      str(value);
    } else if (typeof value === "number" && Number.isInteger(value)) {
      u32(4);
      u32(value);
    } else if (typeof value === "number") {
      u32(6); // float32
      const b = Buffer.alloc(4);
      b.writeFloatLE(value);
      parts.push(b);
    } else if (value.every((v) => typeof v === "string")) {
      u32(9);
      u32(8);
      u64(value.length);
      for (const v of value as string[]) str(v);
    } else {
      const floats = (value as number[]).some((v) => !Number.isInteger(v));
      u32(9);
      u32(floats ? 6 : 5);
      u64(value.length);
      for (const v of value as number[]) {
        const b = Buffer.alloc(4);
        if (floats) b.writeFloatLE(v);
        else b.writeInt32LE(v);
        parts.push(b);
      }
    }
  }
  let offset = 0;
  for (const t of tensors) {
    str(t.name);
    u32(t.dims.length);
    for (const d of t.dims) u64(d);
    u32(0); // GGML_TYPE_F32
    u64(offset);
    offset += Math.ceil((t.data.length * 4) / 32) * 32;
  }
  const body = Buffer.concat(parts);
  const pad = (32 - (body.length % 32)) % 32;
  const data = tensors.map((t) => {
    const bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    return Buffer.concat([bytes, Buffer.alloc((32 - (bytes.length % 32)) % 32)]);
  });
  writeFileSync(file, Buffer.concat([body, Buffer.alloc(pad), ...data]));
}

/**
 * A SentencePiece-style (`llama`) GGUF vocabulary from a Metaspace BPE tokenizer.json: scores rank each
 * merged token by its merge (earlier merge = higher score), plus the 256 `<0xNN>` byte tokens (BYTE, 6)
 * llama.cpp's byte fallback needs. Synthetic (no published SPM model here), for comparing with llama.cpp.
 */
export function spmVocabFromTokenizerJson(json: TokenizerJson): Record<string, string | number | boolean | string[] | number[]> {
  const model = json.model as { vocab: Record<string, number>; merges: (string | [string, string])[] };
  const base = ggufVocabFromTokenizerJson(json, "default");
  const tokens = [...(base["tokenizer.ggml.tokens"] as string[])];
  const types = [...(base["tokenizer.ggml.token_type"] as number[])];
  const scores = tokens.map(() => -1e6 - 0.5);
  model.merges.forEach((m, rank) => {
    const [a, b] = Array.isArray(m) ? m : (m.split(" ") as [string, string]);
    const id = model.vocab[a + b];
    if (id !== undefined && scores[id]! < -rank) scores[id] = -rank - 0.5;
  });
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(6);
    scores.push(-2e6 - 0.5);
  }
  return { "tokenizer.ggml.model": "llama", "tokenizer.ggml.tokens": tokens, "tokenizer.ggml.token_type": types, "tokenizer.ggml.scores": scores };
}
