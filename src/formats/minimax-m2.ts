/**
 * MiniMax-M2 (MiniMax-M2.jinja): `<minimax:tool_call>\n<invoke name="f">\n<parameter name="k">v</parameter>
 * \n</invoke>\n</minimax:tool_call>`, several invokes per block. Reasoning in `<think>...</think>` (the
 * generation prompt `]~b]ai\n<think>\n` opens it); a message ends with `[e~[`.
 */
import { taggedDecoder } from "../parse/decoders/tagged.js";
import { MINIMAX_SYNTAX } from "../parse/decoders/tagged-syntaxes.js";
import type { FormatDescription } from "./types.js";

export const minimaxM2: FormatDescription = {
  id: "minimax-m2",
  description: "MiniMax-M2: <invoke name=\"f\"><parameter name=\"k\">v</parameter></invoke> in <minimax:tool_call>",
  detect: { anyOf: [["<minimax:tool_call>"], ["]~b]"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<minimax:tool_call>"], end: ["</minimax:tool_call>"], decoder: taggedDecoder(MINIMAX_SYNTAX) }],
  ignore: ["[e~["],
};
