/**
 * Meituan LongCat Flash (template: meituan-longcat/LongCat-Flash-Chat's tokenizer_config.json, copied to
 * fixtures/templates with attribution; vLLM's `longcat` tool parser, a Hermes variant, and its tests): a
 * JSON call object in `<longcat_tool_call>\n{"name": "f", "arguments": {...}}\n</longcat_tool_call>` per
 * call, parallel calls back to back; later LongCat models (Flash-Thinking, whose template is not in the
 * repo) write the GLM form in the same tag, `<longcat_tool_call>f\n<longcat_arg_key>k
 * </longcat_arg_key>\n<longcat_arg_value>v</longcat_arg_value>\n</longcat_tool_call>` (values JSON when
 * they are JSON, else text). Reasoning in `<longcat_think>` (the prompt opens it when `enable_thinking`
 * is true) or `<think>`. The template ends every assistant turn with the eos token `</longcat_s>`.
 */
import { defineFormat } from "../parse/language.js";

export const longcat = defineFormat({
  id: "longcat",
  description: "LongCat Flash: JSON or GLM-style arguments in <longcat_tool_call>",
  detect: { anyOf: [["<longcat_tool_call>"]] },
  reasoning: [
    { start: ["<longcat_think>"], end: ["</longcat_think>"] },
    { start: ["<think>"], end: ["</think>"] },
  ],
  regions: [
    {
      start: ["<longcat_tool_call>"],
      end: ["</longcat_tool_call>"],
      payload: {
        kind: "by-first-char",
        cases: { "{": { kind: "json-calls" } },
        otherwise: {
          kind: "tagged",
          params: {
            key: { open: "<longcat_arg_key>", close: "</longcat_arg_key>" },
            value: { open: "<longcat_arg_value>", close: "</longcat_arg_value>" },
          },
          untyped: "json",
        },
      },
    },
  ],
  ignore: ["</longcat_s>"],
});
