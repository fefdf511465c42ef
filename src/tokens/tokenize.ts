/**
 * Prompt text -> token ids with provenance. A control token's text in the prompt becomes its id only
 * where the template wrote it; text from request data (marked by escape placeholders, see escape.ts) is
 * encoded as ordinary text even when it spells `<|im_start|>`, unless the caller opts in.
 *
 * This re-does what a Hugging Face tokenizer does with the prompt, with one change: it splits the
 * prompt into sections at the control tokens (honouring their lstrip/rstrip), then runs each text
 * section through the normaliser, the pre-tokenizer (told the section's index, which Metaspace's
 * `prepend_scheme: "first"` depends on) and the model, and only then puts the data's control-token text
 * back, inside its section, where no added-token matching can see it. A prompt with no placeholders thus
 * gets exactly `tokenizer.encode(prompt)` without added BOS/EOS.
 */
import type { Tokenizer } from "@huggingface/tokenizers";
import { ChatwireError } from "../errors.js";
import { escapeTable, restoreSpecialText, type EscapeTable } from "./escape.js";
import { loadTokenizer, type AddedTokenJson, type TokenizerJson } from "./tokenizer-json.js";

export interface TokenizeOptions {
  /**
   * "template" (default): control tokens come only from template text; request data is ordinary text.
   * "all": request data may produce control tokens too (the caller trusts its data).
   */
  specialTokens?: "template" | "all";
}

type Section = { text: string } | { control: AddedTokenJson };

export function tokenize(prompt: string, tokenizerJson: TokenizerJson, options: TokenizeOptions = {}): number[] {
  const tok = loadTokenizer(tokenizerJson);
  const table = escapeTable(tok.controlTexts);
  if (options.specialTokens === "all") {
    return tok.full.encode(restoreSpecialText(prompt, table), { add_special_tokens: false }).ids;
  }
  const ids: number[] = [];
  splitAtControls(prompt, tok.controls, table).forEach((section, index) => {
    if ("control" in section) ids.push(section.control.id);
    else if (section.text !== "") ids.push(...encodeText(tok.plain, restoreSpecialText(section.text, table), index));
  });
  return ids;
}

/** Text and control-token sections, with whitespace absorbed by lstrip/rstrip tokens removed from the text. */
function splitAtControls(prompt: string, controls: Map<string, AddedTokenJson>, table: EscapeTable): Section[] {
  const sections: Section[] = [];
  let last = 0;
  // The escape pattern matches every control text (and ESC, which here only starts a placeholder).
  for (const match of prompt.matchAll(table.pattern)) {
    const control = controls.get(match[0]);
    if (control === undefined) continue;
    sections.push({ text: prompt.slice(last, match.index) }, { control });
    last = match.index + match[0].length;
  }
  sections.push({ text: prompt.slice(last) });
  sections.forEach((section, i) => {
    if (!("control" in section)) return;
    const before = sections[i - 1];
    const after = sections[i + 1];
    if (section.control.lstrip && before !== undefined && "text" in before) before.text = before.text.trimEnd();
    if (section.control.rstrip && after !== undefined && "text" in after) after.text = after.text.trimStart();
  });
  return sections;
}

/** One text section through normaliser, pre-tokenizer and model, as the tokenizer's own encode does. */
function encodeText(plain: Tokenizer, text: string, sectionIndex: number): number[] {
  const normalized = plain.normalizer === null ? text : plain.normalizer._call(text);
  if (normalized === "" || plain.model === null) return [];
  const words = plain.pre_tokenizer === null ? [normalized] : plain.pre_tokenizer.pre_tokenize(normalized, { section_index: sectionIndex });
  return plain.model._call(words).map((token) => {
    const id = plain.token_to_id(token);
    if (id === undefined) {
      throw new ChatwireError("invalid_template", `tokenizer.json: its model produced ${JSON.stringify(token)}, which is not in its vocabulary`);
    }
    return id;
  });
}
