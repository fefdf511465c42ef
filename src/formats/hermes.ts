/**
 * Hermes 2 Pro / 3, Qwen2.5, QwQ, Qwen3, Granite 4, Reka, Exaone, MiMo:
 * `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>` once per call. Qwen3 thinks in
 * `<think>...</think>` first and sometimes calls inside it; the last call may lack `</tool_call>`.
 */
import { defineFormat } from "../parse/language.js";

export const hermes = defineFormat({
  id: "hermes",
  description: "Hermes / Qwen2.5 / Qwen3 / Granite 4: JSON objects in <tool_call> tags",
  detect: { anyOf: [["<tool_call>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "json-calls" } }],
  ignore: ["<|im_end|>"],
  tolerate: [
    // Qwen2.5-Coder (quantized, long prompts) writes its call object in a ```json fence instead of <tool_call>.
    { kind: "fence", open: ["```json"], payload: { kind: "json-calls" }, evidence: "https://github.com/ardanlabs/kronk/pull/950" },
  ],
});
