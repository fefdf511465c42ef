/**
 * AI21 Jamba 1.5 / 1.6 / 1.7 (the model's own chat template, e.g. AI21-Jamba-Mini-1.7, and vLLM's
 * `jamba` tool parser): a JSON array of call objects in `<tool_calls>[\n    {"name": "f", "arguments":
 * {...}},\n    ...\n]</tool_calls>` after the message's text; `<tool_calls>`/`</tool_calls>` are special
 * tokens. A message ends with `<|eom|>`. The template writes a space after the role token, so a
 * completion starts with ` `; whitespace-only content is null (as vLLM's one-shot parser reports it).
 */
import { defineFormat } from "../parse/language.js";

export const jamba = defineFormat({
  id: "jamba",
  description: "Jamba: JSON array in <tool_calls>, messages ended by <|eom|>",
  detect: { anyOf: [["<tool_definitions>", "<tool_calls>"], ["<|bom|>", "<tool_calls>"]] },
  regions: [{ start: ["<tool_calls>"], end: ["</tool_calls>"], payload: { kind: "json-calls", array: true } }],
  ignore: ["<|eom|>"],
});
