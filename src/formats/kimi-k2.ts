/**
 * Kimi K2 / K2 Thinking / K2.5:
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{...}<|tool_call_end|><|tool_calls_section_end|>`.
 * The id IS `functions.f:N` (N counted across the conversation) and is kept exactly. Thinking models
 * may call inside `<think>` and omit the section markers.
 */
import { defineFormat } from "../parse/language.js";

export const kimiK2 = defineFormat({
  id: "kimi-k2",
  description: "Kimi K2: functions.name:N ids with section markers",
  detect: { anyOf: [["<|tool_calls_section_begin|>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [
    { start: ["<|tool_calls_section_begin|>", "<|tool_call_section_begin|>"], end: ["<|tool_calls_section_end|>", "<|tool_call_section_end|>"] },
  ],
  regions: [
    {
      start: ["<|tool_call_begin|>"],
      end: ["<|tool_call_end|>"],
      // Inside reasoning the end marker may be missing before the next call.
      endsAtNextStart: true,
      payload: {
        kind: "header-args",
        header: ["functions.{name}:{index}", "{name}:{index}"],
        headerEnd: ["<|tool_call_argument_begin|>"],
        headerIsId: true,
      },
    },
  ],
  ignore: ["<|im_end|>"],
});
