/**
 * Liquid LFM2 / LFM2.5 (LFM2-8B-A1B.jinja, LFM2.5-8B-A1B.jinja, LFM2.5-Instruct.jinja):
 * `<|tool_call_start|>[f(a=1, b="x")]<|tool_call_end|>`, Python calls; the models also write JSON call
 * objects there (`[{"name": "f", "arguments": {...}}]`). LFM2.5 thinks in `<think>...</think>`.
 */
import { defineFormat } from "../parse/language.js";

export const lfm2 = defineFormat({
  id: "lfm2",
  description: "Liquid LFM2 / LFM2.5: <|tool_call_start|>[f(a=1)]<|tool_call_end|>",
  detect: { anyOf: [["List of tools: "], ["<|tool_call_start|>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<|tool_call_start|>"], end: ["<|tool_call_end|>"], payload: { kind: "python-or-json", json: { kind: "json-calls" } } }],
  ignore: ["<|im_end|>"],
});
