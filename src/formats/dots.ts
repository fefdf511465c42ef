/**
 * rednote dots, the tool syntax of dots3-note (the peers' `dots` tool parsers name that model): calls in `<dots_function_call>...
 * </dots_function_call>`, one or more `<invoke name="f"><parameter name="k">v</parameter></invoke>`
 * (the name may be unquoted; values raw text typed by the tool's schema), or one JSON call object `{"name": "f", "arguments":
 * {...}}` instead of invokes. Several blocks may follow one another. Reasoning in `<think>`.
 */
import { defineFormat } from "../parse/language.js";

export const dots = defineFormat({
  id: "dots",
  description: "dots: <invoke name=\"f\"><parameter name=\"k\">v</parameter></invoke> (or a JSON call) in <dots_function_call>",
  detect: { anyOf: [["<dots_function_call>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    {
      start: ["<dots_function_call>"],
      end: ["</dots_function_call>"],
      payload: {
        kind: "by-first-char",
        cases: { "{": { kind: "json-calls" } },
        otherwise: {
          kind: "tagged",
          call: { open: ['<invoke name="{name}">', "<invoke name={name}>"], close: "</invoke>" },
          params: { open: ['<parameter name="{key}">', "<parameter name={key}>"], close: "</parameter>" },
          untyped: "string",
        },
      },
    },
  ],
});
