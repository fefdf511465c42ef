/**
 * A `.gguf` model file: llama.cpp stores the chat template in the metadata (`tokenizer.chat_template`,
 * plus `tokenizer.chat_template.<name>` variants) and the special tokens as ids into the vocabulary
 * (`tokenizer.ggml.tokens[tokenizer.ggml.bos_token_id]`). Only the header is read, from a local file;
 * no network access.
 */
import { ChatwireError } from "../errors.js";
import type { LoadedTemplate } from "./config.js";

const TEMPLATE_KEY = "tokenizer.chat_template";

/** @huggingface/gguf is an optional peer dependency: only `.gguf` loading needs it. */
async function ggufReader(): Promise<typeof import("@huggingface/gguf")> {
  try {
    return await import("@huggingface/gguf");
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") throw err;
    throw new ChatwireError("missing_dependency", "reading .gguf files needs the optional package @huggingface/gguf: npm install @huggingface/gguf");
  }
}

export async function loadGguf(file: string): Promise<LoadedTemplate> {
  const { gguf } = await ggufReader();
  let metadata: Record<string, unknown>;
  try {
    metadata = (await gguf(file, { allowLocalFile: true })).metadata as Record<string, unknown>;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown }).code === "ENOENT" ? "io_error" : "invalid_template";
    throw new ChatwireError(code, `${file}: cannot read GGUF metadata: ${message}`);
  }
  const variants: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (typeof value !== "string") continue;
    if (key === TEMPLATE_KEY) variants.default = value;
    else if (key.startsWith(`${TEMPLATE_KEY}.`)) variants[key.slice(TEMPLATE_KEY.length + 1)] = value;
  }
  if (Object.keys(variants).length === 0) {
    throw new ChatwireError("invalid_template", `${file}: the GGUF metadata has no ${TEMPLATE_KEY}`);
  }
  const specialTokens: Record<string, string> = {};
  const tokens = metadata["tokenizer.ggml.tokens"];
  for (const name of ["bos", "eos", "unk", "sep", "pad", "cls", "mask"]) {
    const id = metadata[`tokenizer.ggml.${name}_token_id`];
    const token = Array.isArray(tokens) && (typeof id === "number" || typeof id === "bigint") ? tokens[Number(id)] : undefined;
    if (typeof token === "string") specialTokens[`${name}_token`] = token;
  }
  return { variants, specialTokens, origin: file };
}
