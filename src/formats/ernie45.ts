/**
 * Baidu ERNIE 4.5 Thinking (vLLM's `ernie45` tool parser and its tests): JSON call objects, one per
 * `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>`, after reasoning that ends at
 * `</think>` (the generation prompt opens `<think>`); a plain answer sits in `<response>...
 * </response>` (the wrappers are dropped); a message ends with `<|im_end|>`. Its templates say
 * `<global_setting>` (the think_mode switch) as well as `<tool_call>`, which hermes also matches.
 */
import { defineFormat } from "../parse/language.js";

export const ernie45 = defineFormat({
  id: "ernie-4.5",
  description: "ERNIE 4.5 Thinking: JSON objects in <tool_call> tags after </think>, answers in <response>",
  detect: { anyOf: [["<global_setting>", "<tool_call>"]], before: ["hermes"] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "json-calls" } }],
  ignore: ["<response>", "</response>", "<|im_end|>"],
});
