/**
 * ServiceNow Apriel 1.5 / 1.6: `<tool_calls>[{"name": "f", "arguments": {...}}]</tool_calls>`.
 * Reasoning: the 1.6 generation prompt ends with `Here are my reasoning steps:\n` and the reasoning
 * ends at `[BEGIN FINAL RESPONSE]`; 1.5 writes `<thinking>...</thinking>`.
 */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const apriel: FormatDescription = {
  id: "apriel",
  description: "Apriel: <tool_calls> JSON array",
  detect: { anyOf: [["<available_tools>"]] },
  reasoning: [
    { start: ["Here are my reasoning steps:\n"], end: ["[BEGIN FINAL RESPONSE]"] },
    { start: ["<thinking>"], end: ["</thinking>"] },
  ],
  regions: [{ start: ["<tool_calls>"], end: ["</tool_calls>"], decoder: jsonCalls() }],
  ignore: ["[END FINAL RESPONSE]", "<|end|>"],
};
