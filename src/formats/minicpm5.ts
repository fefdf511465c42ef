/**
 * OpenBMB MiniCPM 5 (openbmb-MiniCPM5-1B.jinja; vLLM's `minicpm5` XML tool parser): bare
 * `<function name="f"><param name="k">v</param></function>` calls in the text, no wrapper. A string
 * holding `<`, `&` or a newline is written as `<![CDATA[...]]>`; other values as Python prints them
 * (`True`, `{'a': 1}`), typed by the schema. vLLM's tests also show the tags with the space lost
 * (`<functionname="f">`, `<paramname="k">`) or kept as the byte-level tokenizer's space mark `Ġ` (U+0120,
 * `<functionĠname="f">`: the tag is an added token, detokenized verbatim). Reasoning in `<think>...</think>`.
 */
import { defineFormat } from "../parse/language.js";

export const minicpm5 = defineFormat({
  id: "minicpm5",
  description: "MiniCPM 5: <function name=\"f\"><param name=\"k\">v</param></function>, CDATA strings",
  detect: { anyOf: [['<function name="', '<param name="', "CDATA"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    {
      start: ["<function name=", "<functionname=", "<function\u0120name="],
      startInPayload: true,
      quietIfNotCall: true,
      payload: {
        kind: "tagged",
        call: { open: ['<function name="{name}">', '<functionname="{name}">', '<function\u0120name="{name}">'], close: "</function>" },
        params: { open: ['<param name="{key}">', '<paramname="{key}">', '<param\u0120name="{key}">'], close: "</param>" },
        afterParam: ["<param", "</function>"],
        untyped: "json",
        cdata: true,
      },
    },
  ],
  ignore: ["<|im_end|>"],
});
