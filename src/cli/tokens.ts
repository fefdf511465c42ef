/**
 * `render --tokens`: the prompt's token ids, with provenance (src/tokens): special tokens come only
 * from template text; the same text inside request data is encoded as ordinary text unless the caller
 * opts in with --special-from-data (non-special added tokens such as `<tool_call>` match anywhere, as in
 * Hugging Face and llama.cpp). The tokenizer is `--tokenizer FILE|FOLDER|GGUF`, or the one that comes
 * with --template (tokenizer-beside.ts).
 */
import type { ChatTemplate, RenderOptions } from "../template/index.js";
import { loadTokenizer, renderTokens, type ChatTokenizer, type TokenizedPrompt } from "../tokens/index.js";
import { tokenizerBeside } from "../template/tokenizer-beside.js";
import { UsageError } from "./io.js";

/** The tokenizer named by --tokenizer, else the --template folder's tokenizer.json or .gguf vocabulary. */
export async function tokenizerFor(explicit: string | undefined, templateSource: string): Promise<ChatTokenizer> {
  return loadTokenizer(await tokenizerPath(explicit, templateSource));
}

export function renderTokenIds(template: ChatTemplate, request: unknown, options: RenderOptions, tokenizer: ChatTokenizer, specialFromData: boolean, assistantMask = false): TokenizedPrompt {
  return renderTokens(template, request, tokenizer, { ...options, protect: specialFromData ? "none" : "special", assistantMask });
}

async function tokenizerPath(explicit: string | undefined, templateSource: string): Promise<string> {
  if (explicit !== undefined) return explicit;
  const found = await tokenizerBeside(templateSource);
  if (found === undefined) {
    throw new UsageError("--tokens needs --tokenizer FILE (a tokenizer.json or .gguf), or as --template a model folder with a tokenizer.json, a tokenizer_config.json with tokenizer.json beside it, or a .gguf");
  }
  return found;
}
