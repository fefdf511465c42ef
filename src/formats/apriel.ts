/**
 * ServiceNow Apriel 1.5 / 1.6: `<tool_calls>[{"name": "f", "arguments": {...}}]</tool_calls>`.
 * Reasoning: the 1.6 generation prompt ends with `Here are my reasoning steps:\n` and the reasoning
 * ends at `[BEGIN FINAL RESPONSE]`; 1.5 writes `<thinking>...</thinking>`.
 */
import { defineFormat } from "../parse/language.js";

export const apriel = defineFormat({
  id: "apriel",
  description: "Apriel: <tool_calls> JSON array",
  // Apriel 1.5 templates also show `<tool_call>`.
  detect: { anyOf: [["<available_tools>"]], before: ["hermes"] },
  reasoning: [
    { start: ["Here are my reasoning steps:\n"], end: ["[BEGIN FINAL RESPONSE]"] },
    { start: ["<thinking>"], end: ["</thinking>"] },
  ],
  regions: [{ start: ["<tool_calls>"], end: ["</tool_calls>"], payload: { kind: "json-calls", array: true } }],
  ignore: ["[END FINAL RESPONSE]", "<|end|>"],
});
