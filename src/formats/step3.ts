/**
 * StepFun Step-3 (the older Step-3, not Step-3.5; vLLM's and SGLang's `step3` tool parsers): calls in a
 * `<｜tool_calls_begin｜>...<｜tool_calls_end｜>` section (fullwidth `｜`, ASCII `_`), each
 * `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f"><steptml:parameter name="k">v
 * </steptml:parameter></steptml:invoke><｜tool_call_end｜>`; values are raw text typed by the tool's
 * schema. vLLM's vectors also leave out `function<｜tool_sep｜>`, and put a `<｜tool_sep｜>` between
 * two calls (dropped). Reasoning ends at `</think>` (the prompt opens it).
 */
import { defineFormat } from "../parse/language.js";

export const step3 = defineFormat({
  id: "step3",
  description: "Step-3: <steptml:invoke> calls in <｜tool_calls_begin｜>",
  detect: { anyOf: [["<steptml:invoke", "<｜tool_calls_begin｜>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: ["<｜tool_calls_begin｜>"], end: ["<｜tool_calls_end｜>"] }],
  regions: [
    {
      start: ["<｜tool_call_begin｜>function<｜tool_sep｜>", "<｜tool_call_begin｜>"],
      end: ["<｜tool_call_end｜>"],
      payload: {
        kind: "tagged",
        call: { open: ['<steptml:invoke name="{name}">'], close: "</steptml:invoke>" },
        params: { open: ['<steptml:parameter name="{key}">'], close: "</steptml:parameter>" },
        untyped: "string",
      },
    },
  ],
  ignore: ["<｜tool_sep｜>", "<|EOT|>"],
});
