/**
 * MiniMax M1 (MiniMax-M1.jinja; vLLM's `minimax` tool parser): one JSON call object per line inside
 * `<tool_calls>\n{"name": "f", "arguments": {...}}\n...\n</tool_calls>`, reasoning in
 * `<think>...</think>`; a message ends with `<end_of_sentence>`.
 */
import { defineFormat } from "../parse/language.js";

export const minimaxM1 = defineFormat({
  id: "minimax-m1",
  description: "MiniMax M1: JSON call objects, one per line, in <tool_calls>",
  detect: { anyOf: [["<beginning_of_sentence>ai name=assistant", "<tool_calls>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<tool_calls>"], end: ["</tool_calls>"], payload: { kind: "json-calls", sequence: true } }],
  ignore: ["<end_of_sentence>"],
});
