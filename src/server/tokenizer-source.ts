/**
 * Where `chatwire serve` gets the vocabulary it encodes prompts with, decided once at start-up:
 * 1. `--tokenizer FILE` (a tokenizer.json);
 * 2. the `--template` model folder's tokenizer.json;
 * 3. the `--template` .gguf's own vocabulary (`tokenizer.ggml.*`);
 * 4. the backend itself, for llama-server (`/tokenize` per segment: template text with
 *    `parse_special`, request data without).
 * With none of these, the server refuses to start unless told to send text (`--text-prompt`).
 */
import { ChatwireError } from "../errors.js";
import { kindOf, nodeFs, readText } from "../template/node-fs.js";
import type { TokenizerJson } from "../tokens/index.js";
import type { BackendKind } from "./backends/types.js";
import type { PromptTokenizer } from "./prompt-tokens.js";
import { tokenizerJsonPrompts } from "./tokenizer-json-prompts.js";

export interface TokenizerSourceOptions {
  /** An explicit tokenizer.json. */
  tokenizerFile?: string;
  /** The --template argument (a folder or a .gguf may carry a vocabulary). */
  templateSource: string;
  backendKind: BackendKind;
  backendUrl: string;
}

/** The tokenizer to use, or undefined when there is none (the caller then needs --text-prompt). */
export async function findPromptTokenizer(options: TokenizerSourceOptions): Promise<PromptTokenizer | undefined> {
  if (options.tokenizerFile !== undefined) return tokenizerJsonPrompts(await readTokenizerJson(options.tokenizerFile), options.tokenizerFile);
  const { path } = await nodeFs();
  if ((await kindOf(options.templateSource)) === "dir") {
    const candidate = path.join(options.templateSource, "tokenizer.json");
    if ((await kindOf(candidate)) === "file") return tokenizerJsonPrompts(await readTokenizerJson(candidate), candidate);
  }
  return undefined;
}

async function readTokenizerJson(file: string): Promise<TokenizerJson> {
  const text = await readText(file);
  let json: unknown;
  try {
    // Plain JSON.parse: the tokenizer wants numbers, not the PyFloat values readJson makes for templates.
    json = JSON.parse(text);
  } catch (err) {
    throw new ChatwireError("io_error", `${file}: not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== "object" || json === null || !("model" in json)) throw new ChatwireError("io_error", `${file}: not a tokenizer.json (no "model")`);
  return json as TokenizerJson;
}
