/**
 * Where `chatwire serve` gets the vocabulary it encodes prompts with, decided once at start-up:
 * 1. `--tokenizer FILE` (a tokenizer.json, or a .gguf);
 * 2. the `--template` model folder's tokenizer.json;
 * 3. the `--template` .gguf's own vocabulary (`tokenizer.ggml.*`);
 * 4. the backend itself, for llama-server (`/tokenize` per segment: the template's special tokens with
 *    `parse_special`, everything else without).
 * With none of these, the server refuses to start unless told to send text (`--text-prompt`).
 */
import { ChatwireError } from "../errors.js";
import type { ChatTemplate } from "../template/index.js";
import { kindOf, nodeFs, readText } from "../template/node-fs.js";
import { parseTokenizerJson, tokenizerJsonFromGgufFile, type TokenizerJson } from "../tokens/index.js";
import { backendPrompts } from "./backend-prompts.js";
import type { TransportOptions } from "./backends/transport.js";
import type { BackendKind } from "./backends/types.js";
import type { PromptTokenizer } from "./prompt-tokens.js";
import { vocabPrompts } from "./vocab-prompts.js";

export interface TokenizerSourceOptions {
  /** An explicit tokenizer.json or .gguf. */
  tokenizerFile?: string;
  /** The --template argument (a folder or a .gguf may carry a vocabulary). */
  templateSource: string;
  template?: ChatTemplate;
  backendKind: BackendKind;
  /** How to reach the backend, for asking llama-server (omit to never ask). */
  transport?: TransportOptions;
}

const isGguf = (file: string): boolean => file.toLowerCase().endsWith(".gguf");

/** The tokenizer to use, or undefined when there is none (the caller then needs --text-prompt). */
export async function findPromptTokenizer(options: TokenizerSourceOptions): Promise<PromptTokenizer | undefined> {
  if (options.tokenizerFile !== undefined) return fromFile(options.tokenizerFile);
  const { path } = await nodeFs();
  const kind = await kindOf(options.templateSource);
  if (kind === "dir") {
    const candidate = path.join(options.templateSource, "tokenizer.json");
    if ((await kindOf(candidate)) === "file") return fromFile(candidate);
  }
  if (kind === "file" && isGguf(options.templateSource)) return fromFile(options.templateSource);
  if (options.backendKind === "llamacpp" && options.transport !== undefined && options.template !== undefined) {
    return backendPrompts(options.template, options.transport);
  }
  return undefined;
}

/** A tokenizer.json or a .gguf's vocabulary, as a PromptTokenizer. */
export async function fromFile(file: string): Promise<PromptTokenizer> {
  if (isGguf(file)) return vocabPrompts(await tokenizerJsonFromGgufFile(file), `gguf ${file}`);
  return vocabPrompts(await readTokenizerJson(file), `tokenizer.json ${file}`);
}

async function readTokenizerJson(file: string): Promise<TokenizerJson> {
  if ((await kindOf(file)) !== "file") throw new ChatwireError("io_error", `${file}: no such file`);
  return parseTokenizerJson(await readText(file), file);
}
