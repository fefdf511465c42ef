/**
 * Swiss AI Apertus: `<|tools_prefix|>[{"f": {...}}]<|tools_suffix|>` (the tool name is the key);
 * reasoning in `<|inner_prefix|>...<|inner_suffix|>`.
 */
import { defineFormat } from "../parse/language.js";

export const apertus = defineFormat({
  id: "apertus",
  description: "Apertus: <|tools_prefix|>[{name: args}]<|tools_suffix|>",
  detect: { anyOf: [["<|tools_prefix|>"]] },
  reasoning: [{ start: ["<|inner_prefix|>"], end: ["<|inner_suffix|>"] }],
  regions: [{ start: ["<|tools_prefix|>"], end: ["<|tools_suffix|>"], payload: { kind: "json-calls", nameIsKey: true } }],
  // The turn's own markers carry no text; Ollama's parser sees `<|assistant_start|>` in raw output too.
  ignore: ["<|assistant_start|>", "<|assistant_end|>"],
});
