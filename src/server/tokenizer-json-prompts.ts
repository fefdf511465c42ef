/**
 * A PromptTokenizer from a Hugging Face tokenizer.json (src/tokens): the request's data is protected
 * (control-token text replaced by placeholders), rendered, and the prompt encoded so that only the
 * template's own control-token text becomes control ids. The same ids transformers'
 * `apply_chat_template(tokenize=True)` gives for requests whose data spells no control token.
 */
import type { ChatTemplate } from "../template/index.js";
import { protectRequest, restorePrompt, tokenize, type TokenizerJson } from "../tokens/index.js";
import { loadTokenizer } from "../tokens/tokenizer-json.js";
import type { EncodedPrompt, PromptTokenizer } from "./prompt-tokens.js";

export function tokenizerJsonPrompts(json: TokenizerJson, where: string): PromptTokenizer {
  const loaded = loadTokenizer(json);
  const controlIds = new Set((json.added_tokens ?? []).map((t) => t.id));
  return {
    source: `tokenizer.json ${where}`,
    async encode(template: ChatTemplate, body: Record<string, unknown>): Promise<EncodedPrompt> {
      const escaped = template.render(protectRequest(body, json));
      return { text: restorePrompt(escaped, json), ids: tokenize(escaped, json) };
    },
    async tokenize(text: string, special: boolean): Promise<number[]> {
      return special ? tokenize(text, json, { specialTokens: "all" }) : tokenize(protectRequest(text, json), json);
    },
    async detokenize(ids: readonly number[]): Promise<string> {
      return loaded.full.decode([...ids], { skip_special_tokens: false });
    },
    isControl: (id) => controlIds.has(id),
  };
}
