/**
 * Kimi K2 / K2 Thinking / K2.5:
 * `<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{...}<|tool_call_end|><|tool_calls_section_end|>`.
 * The id IS `functions.f:N` (N counted across the conversation) and is kept exactly. Thinking models
 * may call inside `<think>` and omit the section markers.
 */
import { headerArgs } from "../parse/decoders/header-args.js";
import type { FormatDescription } from "./types.js";

/** `functions.get_weather:0` (or `get_weather:0`): the name is between the prefix and the counter. */
const ID = /^(?:functions\.)?([A-Za-z0-9_\-.]+?):(\d+)$/;

export const kimiK2: FormatDescription = {
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
      decoder: headerArgs({
        headerEnd: ["<|tool_call_argument_begin|>"],
        parseHeader(header) {
          const id = header.trim();
          const m = ID.exec(id);
          return m ? { name: m[1]!, id } : undefined;
        },
      }),
    },
  ],
  ignore: ["<|im_end|>"],
};
