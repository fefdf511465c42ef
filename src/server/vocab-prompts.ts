/**
 * A PromptTokenizer from a vocabulary chatwire holds itself (src/tokens ChatTokenizer: a tokenizer.json,
 * or a .gguf's `tokenizer.ggml.*` turned into one): the request's data is protected (special-token text
 * replaced by placeholders), rendered, and the prompt encoded so that only the template's own special
 * tokens become special ids, the ids transformers' `apply_chat_template(tokenize=True)` gives when the
 * data spells none. Decoding (`/detokenize`) builds Hugging Face's decoder on first use only.
 */
import type { Tokenizer } from "@huggingface/tokenizers";
import type { ChatTemplate } from "../template/index.js";
import { loadTokenizer, type TokenizerJson } from "../tokens/index.js";
import { inProcessPrompts, type EncodedPrompt, type PromptTokenizer } from "./prompt-tokens.js";

export async function vocabPrompts(json: TokenizerJson, source: string): Promise<PromptTokenizer> {
  const tokenizer = await loadTokenizer(json);
  let decoder: Tokenizer | undefined;
  const prompts: PromptTokenizer = {
    source,
    async encode(template: ChatTemplate, body: Record<string, unknown>): Promise<EncodedPrompt> {
      const { ids, prompt } = template.renderTokens(body, tokenizer);
      return { text: prompt, ids };
    },
    async tokenize(text: string, special: boolean): Promise<number[]> {
      return tokenizer.tokenize(text, special);
    },
    async detokenize(ids: readonly number[]): Promise<string> {
      // The optional package is imported here, not at the top: the CLI (which bundles this module) must
      // start without it.
      decoder ??= new (await import("@huggingface/tokenizers")).Tokenizer(json, {});
      return decoder.decode([...ids], { skip_special_tokens: false });
    },
    isControl: (id) => tokenizer.specialIds.has(id),
  };
  inProcessPrompts.add(prompts);
  return prompts;
}
