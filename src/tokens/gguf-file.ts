/**
 * A `.gguf` file's own vocabulary as a tokenizer.json (Node only: it reads the file). The metadata is
 * read by chatwire's bounds-checked GGUF reader, so a truncated or lying file is a typed error, never an
 * allocation the file does not back; only `tokenizer.ggml.*` entries are decoded.
 */
import { readGgufKeys } from "../template/load-gguf.js";
import { tokenizerJsonFromGguf, type GgufVocabMetadata } from "./gguf-vocab.js";
import type { TokenizerJson } from "./tokenizer-json.js";

export async function tokenizerJsonFromGgufFile(file: string): Promise<TokenizerJson> {
  const metadata = await readGgufKeys(file, (key) => key.startsWith("tokenizer.ggml."));
  return tokenizerJsonFromGguf(Object.fromEntries(metadata) as GgufVocabMetadata, file);
}
