/**
 * MiniMax-M2 (MiniMax-M2.jinja): `<minimax:tool_call>\n<invoke name="f">\n<parameter name="k">v</parameter>
 * \n</invoke>\n</minimax:tool_call>`, several invokes per block; undeclared keys stay strings. Reasoning
 * in `<think>...</think>` (the generation prompt `]~b]ai\n<think>\n` opens it); a message ends with `[e~[`.
 */
import { defineFormat } from "../parse/language.js";

export const minimaxM2 = defineFormat({
  id: "minimax-m2",
  description: "MiniMax-M2: <invoke name=\"f\"><parameter name=\"k\">v</parameter></invoke> in <minimax:tool_call>",
  detect: { anyOf: [["<minimax:tool_call>"], ["]~b]"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    {
      start: ["<minimax:tool_call>"],
      end: ["</minimax:tool_call>"],
      payload: {
        kind: "tagged",
        call: { open: ['<invoke name="{name}">'], close: "</invoke>" },
        params: { open: ['<parameter name="{key}">'], close: "</parameter>" },
        // A value whose `</parameter>` is missing ends at `</invoke>` when the region's end or the next
        // invoke follows it (Ollama's minimaxm2 parser recovers such calls).
        implicitEnds: [{ tag: "</invoke>", after: ['<invoke name="'], inline: true }],
        untyped: "string",
      },
    },
  ],
  ignore: ["[e~["],
});
