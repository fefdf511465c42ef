/**
 * Where `chatwire serve` gets the vocabulary it encodes prompts with, decided once at start-up:
 * 1. `--tokenizer FILE` (a tokenizer.json, or a .gguf);
 * 2. the `--template` model folder's tokenizer.json, or the one beside a tokenizer_config.json;
 * 3. the `--template` .gguf's own vocabulary (`tokenizer.ggml.*`);
 * 4. the backend itself, for llama-server (`/tokenize` per segment: the template's special tokens with
 *    `parse_special`, everything else without). The backend need not be up: the probe is retried in
 *    the background (waiting-prompts.ts) and the server answers 503 until it succeeds.
 * With none of these, the server refuses to start unless told to send text (`--text-prompt`).
 */
import { ChatwireError } from "../errors.js";
import type { ChatTemplate } from "../template/index.js";
import { kindOf, readText } from "../template/node-fs.js";
import { tokenizerBeside } from "../template/tokenizer-beside.js";
import { parseTokenizerJson, tokenizerJsonFromGgufFile, type TokenizerJson } from "../tokens/index.js";
import type { TransportOptions } from "./backends/transport.js";
import type { BackendKind } from "./backends/types.js";
import type { PromptTokenizer } from "./prompt-tokens.js";
import { vocabPrompts } from "./vocab-prompts.js";
import { waitingBackendPrompts, type RetryOptions } from "./waiting-prompts.js";

export interface TokenizerSourceOptions {
  /** An explicit tokenizer.json or .gguf. */
  tokenizerFile?: string;
  /** The --template argument (a folder or a .gguf may carry a vocabulary). */
  templateSource: string;
  template?: ChatTemplate;
  backendKind: BackendKind;
  /** How to reach the backend, for asking llama-server (omit to never ask). */
  transport?: TransportOptions;
  /** How the backend's vocabulary probe is retried while the backend is not up, and where that is logged. */
  retry?: RetryOptions;
}

const isGguf = (file: string): boolean => file.toLowerCase().endsWith(".gguf");

/** The tokenizer to use, or undefined when there is none (the caller then needs --text-prompt). */
export async function findPromptTokenizer(options: TokenizerSourceOptions): Promise<PromptTokenizer | undefined> {
  if (options.tokenizerFile !== undefined) return fromFile(options.tokenizerFile);
  const beside = await tokenizerBeside(options.templateSource);
  if (beside !== undefined) return fromFile(beside);
  if (options.backendKind === "llamacpp" && options.transport !== undefined && options.template !== undefined) {
    const prompts = waitingBackendPrompts(options.template, options.transport, options.retry);
    await prompts.firstAttempt;
    return prompts;
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
