/**
 * IBM Granite 3.x: `<|tool_call|>[{"name": "f", "arguments": {...}}]` at the end of the answer.
 * Reasoning `<think>...</think>`, then the answer in `<response>...</response>` (the wrappers are
 * dropped).
 */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const granite: FormatDescription = {
  id: "granite",
  description: "Granite 3.x: <|tool_call|> then a JSON array",
  detect: { anyOf: [["<|tool_call|>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  // Some Granite 3 fine-tunes write `<tool_call>` for the special token.
  regions: [{ start: ["<|tool_call|>", "<tool_call>"], decoder: jsonCalls() }],
  ignore: ["<response>", "</response>", "<|end_of_text|>"],
};
