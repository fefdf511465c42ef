/**
 * IBM Granite 3.x: `<|tool_call|>[{"name": "f", "arguments": {...}}]` at the end of the answer.
 * Reasoning `<think>...</think>`, then the answer in `<response>...</response>` (the wrappers are
 * dropped).
 */
import { defineFormat } from "../parse/language.js";

export const granite = defineFormat({
  id: "granite",
  description: "Granite 3.x: <|tool_call|> then a JSON array",
  detect: { anyOf: [["<|tool_call|>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  // Some Granite 3 fine-tunes write `<tool_call>` for the special token.
  regions: [{ start: ["<|tool_call|>", "<tool_call>"], payload: { kind: "json-calls", array: true } }],
  ignore: ["<response>", "</response>", "<|end_of_text|>"],
});
