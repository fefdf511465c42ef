/**
 * Tencent Hunyuan A13B (vLLM's examples/tool_chat_template_hunyuan_a13b.jinja and its `hunyuan_a13b`
 * tool parser): a JSON array of call objects in `<tool_calls>[{"name": "f", "arguments": {...}}]
 * </tool_calls>`; reasoning in `<think>...</think>`, the answer in `<answer>...</answer>` (the wrappers
 * are dropped); a message ends with `<|eos|>`. Plain answers start with `助手：`, which is the model's
 * text and stays in content.
 */
import { defineFormat } from "../parse/language.js";

export const hunyuanA13b = defineFormat({
  id: "hunyuan-a13b",
  description: "Hunyuan A13B: JSON array in <tool_calls>, <think>/<answer>",
  detect: { anyOf: [["<|extra_4|>", "<tool_calls>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<tool_calls>"], end: ["</tool_calls>"], payload: { kind: "json-calls", array: true } }],
  ignore: ["<answer>", "</answer>", "<|eos|>"],
});
