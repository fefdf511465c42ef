/**
 * StepFun Step-3 (the older Step-3, not Step-3.5; template: stepfun-ai/step3's chat_template.json and
 * tokenizer_config.json, copied to fixtures/templates with attribution; vLLM's and SGLang's `step3` tool
 * parsers): calls in a `<｜tool_calls_begin｜>...<｜tool_calls_end｜>` section (fullwidth `｜`, ASCII
 * `_`), each `<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f"><steptml:parameter
 * name="k">v</steptml:parameter></steptml:invoke><｜tool_call_end｜>`; values are raw text typed by the
 * tool's schema. The template's instructions put a newline before `function<｜tool_sep｜>`; vLLM's
 * vectors also leave `function<｜tool_sep｜>` out, and put a `<｜tool_sep｜>` between two calls
 * (dropped). Reasoning ends at `</think>` (the prompt opens it).
 *
 * The vendor's template writes the calls of past assistant turns with a typo'd start marker,
 * `<｜tool_call_begin>｜>` (bracket and bar swapped; the correct `<｜tool_call_begin｜>` is only in its
 * system-prompt instructions). A model trained on histories the template wrote may copy it, and a turn
 * the template re-renders must parse back, so that exact spelling is an accepted start too (peers
 * accept only the correct one). Only this one misspelling, nothing looser.
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
      // The first start is the one a grammar writes: the form the template's instructions show.
      start: [
        "<｜tool_call_begin｜>\nfunction<｜tool_sep｜>",
        "<｜tool_call_begin｜>function<｜tool_sep｜>",
        "<｜tool_call_begin｜>",
        "<｜tool_call_begin>｜>\nfunction<｜tool_sep｜>",
        "<｜tool_call_begin>｜>function<｜tool_sep｜>",
        "<｜tool_call_begin>｜>",
      ],
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
