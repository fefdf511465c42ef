/**
 * `loadTokenizer(source)`: a ChatTokenizer from a tokenizer.json path, a model folder holding one, a
 * `.gguf` file (its own vocabulary, gguf-file.ts) or a parsed tokenizer.json object. Built once and
 * reused: files are cached by path (and size and mtime, so an edited file is reloaded), objects by
 * identity. A server or a loop over a data set pays the load once, then only the encode per prompt.
 */
import { ChatwireError } from "../errors.js";
import { createTokenizer, type ChatTokenizer } from "./tokenizer.js";
import { parseTokenizerJson, type TokenizerJson } from "./tokenizer-json.js";

const byObject = new WeakMap<TokenizerJson, Promise<ChatTokenizer>>();
/** Loaded files; a handful at most (a big vocabulary is hundreds of MB in memory), oldest dropped first. */
const byPath = new Map<string, Promise<ChatTokenizer>>();
const MAX_FILES = 4;

export async function loadTokenizer(source: string | TokenizerJson): Promise<ChatTokenizer> {
  if (typeof source !== "string") {
    let loading = byObject.get(source);
    if (loading === undefined) {
      loading = createTokenizer(source);
      byObject.set(source, loading);
      loading.catch(() => byObject.delete(source));
    }
    return loading;
  }
  const { fs, path } = await nodeModules();
  let file = path.resolve(source);
  let stat = await statOf(fs, file);
  if (stat.isDirectory()) {
    file = path.join(file, "tokenizer.json");
    stat = await statOf(fs, file);
  }
  if (!stat.isFile()) throw new ChatwireError("io_error", `${file}: not a regular file`);
  const key = `${file}\u0000${stat.size}\u0000${stat.mtimeMs}`;
  let loading = byPath.get(key);
  if (loading === undefined) {
    loading = loadFile(fs, file);
    if (byPath.size >= MAX_FILES) byPath.delete(byPath.keys().next().value as string);
    byPath.set(key, loading);
    loading.catch(() => byPath.delete(key));
  }
  return loading;
}

async function loadFile(fs: typeof import("node:fs/promises"), file: string): Promise<ChatTokenizer> {
  if (file.toLowerCase().endsWith(".gguf")) {
    const { tokenizerJsonFromGgufFile } = await import("./gguf-file.js");
    return createTokenizer(await tokenizerJsonFromGgufFile(file));
  }
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (err) {
    throw new ChatwireError("io_error", `${file}: ${(err as Error).message}`);
  }
  try {
    return await createTokenizer(parseTokenizerJson(text, file));
  } catch (err) {
    if (err instanceof ChatwireError) throw new ChatwireError(err.code, err.message.startsWith(file) ? err.message : `${file}: ${err.message}`);
    throw err;
  }
}

async function nodeModules() {
  const [fs, path] = await Promise.all([import("node:fs/promises"), import("node:path")]);
  return { fs, path };
}

async function statOf(fs: typeof import("node:fs/promises"), file: string) {
  try {
    return await fs.stat(file);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new ChatwireError("io_error", `${file}: ${code === "ENOENT" ? "no such file or folder" : (err as Error).message}`);
  }
}
