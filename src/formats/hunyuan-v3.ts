/**
 * Tencent Hunyuan 3 (tencent-Hy3.jinja; vLLM's `hy_v3` tool parser): GLM-style calls in tokens that all
 * carry the `:opensource` suffix:
 * `<tool_calls:opensource>\n<tool_call:opensource>f<tool_sep:opensource>\n<arg_key:opensource>k</arg_key:opensource>\n
 * <arg_value:opensource>v</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>`,
 * values as they are for strings and JSON otherwise. Reasoning in `<think:opensource>...</think:opensource>`
 * (the generation prompt may open it); a message ends with `<｜hy_eos:opensource｜>`.
 */
import { defineFormat } from "../parse/language.js";

const T = (tag: string): string => `<${tag}:opensource>`;

export const hunyuanV3 = defineFormat({
  id: "hunyuan-v3",
  description: "Hunyuan 3 (Hy3): <tool_call:opensource>f<tool_sep:opensource><arg_key:opensource>... tags",
  detect: { anyOf: [["<tool_sep{}>", ":opensource"]] },
  reasoning: [{ start: [T("think")], end: [T("/think")] }],
  sections: [{ start: [T("tool_calls")], end: [T("/tool_calls")] }],
  regions: [
    {
      start: [T("tool_call")],
      end: [T("/tool_call")],
      payload: {
        kind: "tagged",
        nameSep: T("tool_sep"),
        params: { key: { open: T("arg_key"), close: T("/arg_key") }, value: { open: T("arg_value"), close: T("/arg_value") } },
        untyped: "json",
      },
    },
  ],
  ignore: ["<｜hy_eos:opensource｜>"],
});
