/**
 * A `.gguf` model file: llama.cpp stores the chat template in the metadata (`tokenizer.chat_template`,
 * plus `tokenizer.chat_template.<name>` variants) and the special tokens as ids into the vocabulary
 * (`tokenizer.ggml.tokens[tokenizer.ggml.bos_token_id]`). Only the header is read, from a local regular
 * file, with every size checked against the file (gguf-metadata.ts); no network access.
 */
import { ChatwireError } from "../errors.js";
import type { LoadedTemplate } from "./config.js";
import { readGgufMetadata } from "./gguf-metadata.js";
import { openRegular } from "./node-fs.js";

const TEMPLATE_KEY = "tokenizer.chat_template";
const TOKENS_KEY = "tokenizer.ggml.tokens";

/**
 * transformers' special-token names and the GGUF keys of their ids, as llama.cpp's converter writes
 * them (gguf-py `Keys.Tokenizer`: `unknown_token_id`, `seperator_token_id` [sic], `padding_token_id`);
 * the short forms (`unk_token_id`, ...) are read too when a file has them instead.
 */
const TOKEN_KEYS: readonly [string, readonly string[]][] = [
  ["bos_token", ["bos_token_id"]],
  ["eos_token", ["eos_token_id"]],
  ["unk_token", ["unknown_token_id", "unk_token_id"]],
  ["sep_token", ["seperator_token_id", "separator_token_id", "sep_token_id"]],
  ["pad_token", ["padding_token_id", "pad_token_id"]],
  ["cls_token", ["cls_token_id"]],
  ["mask_token", ["mask_token_id"]],
];
const ID_KEYS = new Set(TOKEN_KEYS.flatMap(([, keys]) => keys.map((k) => `tokenizer.ggml.${k}`)));

const wanted = (key: string) => key === TEMPLATE_KEY || key.startsWith(`${TEMPLATE_KEY}.`) || key === TOKENS_KEY || ID_KEYS.has(key);

/**
 * The metadata entries of a local `.gguf` file whose key `want` accepts, read with our bounds-checked
 * reader (gguf-metadata.ts) from a regular file only. The template loader and the tokenizer builder
 * (src/tokens/gguf-file.ts) both read through here.
 */
export async function readGgufKeys(file: string, want: (key: string) => boolean): Promise<Map<string, unknown>> {
  const { handle, size } = await openRegular(file);
  try {
    return await readGgufMetadata(handle, size, file, want);
  } finally {
    await handle.close();
  }
}

export async function loadGguf(file: string): Promise<LoadedTemplate> {
  const metadata = await readGgufKeys(file, wanted);
  // Own keys only, whatever the variant names are (`__proto__` included).
  const variants: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of metadata) {
    if (typeof value !== "string") continue;
    const name = key === TEMPLATE_KEY ? "default" : key.startsWith(`${TEMPLATE_KEY}.`) ? key.slice(TEMPLATE_KEY.length + 1) : undefined;
    if (name !== undefined) Object.defineProperty(variants, name, { value, enumerable: true, writable: true, configurable: true });
  }
  if (Object.keys(variants).length === 0) {
    throw new ChatwireError("invalid_template", `${file}: the GGUF metadata has no ${TEMPLATE_KEY}`);
  }
  const specialTokens: Record<string, string> = {};
  const tokens = metadata.get(TOKENS_KEY);
  for (const [name, keys] of TOKEN_KEYS) {
    const id = keys.map((k) => metadata.get(`tokenizer.ggml.${k}`)).find((v) => typeof v === "number" || typeof v === "bigint");
    const token = Array.isArray(tokens) && id !== undefined ? tokens[Number(id)] : undefined;
    if (typeof token === "string") specialTokens[name] = token;
  }
  return { variants: { ...variants }, specialTokens, origin: file };
}
