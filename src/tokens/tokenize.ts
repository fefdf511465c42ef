/**
 * Prompt text -> token ids with provenance. A control token's text in the prompt becomes its id only
 * where the template wrote it; text from request data (marked by escape placeholders, see escape.ts) is
 * encoded as ordinary text even when it spells `<|im_start|>`, unless the caller opts in.
 *
 * Encoding each stretch between control tokens separately is exactly what Hugging Face tokenizers do
 * (split on added tokens first, then normalise / pre-tokenise / model each piece), so a prompt with no
 * placeholders gets the same ids as `tokenizer.encode(prompt)` without added BOS/EOS.
 */
import { escapeTable, restoreSpecialText } from "./escape.js";
import { loadTokenizer, type TokenizerJson } from "./tokenizer-json.js";

export interface TokenizeOptions {
  /**
   * "template" (default): control tokens come only from template text; request data is ordinary text.
   * "all": request data may produce control tokens too (the caller trusts its data).
   */
  specialTokens?: "template" | "all";
}

export function tokenize(prompt: string, tokenizerJson: TokenizerJson, options: TokenizeOptions = {}): number[] {
  const tok = loadTokenizer(tokenizerJson);
  const table = escapeTable(tok.controlTexts);
  if (options.specialTokens === "all") {
    return tok.full.encode(restoreSpecialText(prompt, table), { add_special_tokens: false }).ids;
  }
  const ids: number[] = [];
  const encodePlain = (text: string) => {
    if (text !== "") ids.push(...tok.plain.encode(restoreSpecialText(text, table), { add_special_tokens: false }).ids);
  };
  // The escape table's pattern also matches ESC, which only ever occurs inside a placeholder here.
  let last = 0;
  for (const match of prompt.matchAll(table.pattern)) {
    const id = tok.controlIds.get(match[0]);
    if (id === undefined) continue;
    encodePlain(prompt.slice(last, match.index));
    ids.push(id);
    last = match.index + match[0].length;
  }
  encodePlain(prompt.slice(last));
  return ids;
}
