/**
 * Swiss AI Apertus: `<|tools_prefix|>[{"f": {...}}]<|tools_suffix|>` (the tool name is the key);
 * reasoning in `<|inner_prefix|>...<|inner_suffix|>`.
 */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const apertus: FormatDescription = {
  id: "apertus",
  description: "Apertus: <|tools_prefix|>[{name: args}]<|tools_suffix|>",
  detect: { anyOf: [["<|tools_prefix|>"]] },
  reasoning: [{ start: ["<|inner_prefix|>"], end: ["<|inner_suffix|>"] }],
  regions: [{ start: ["<|tools_prefix|>"], end: ["<|tools_suffix|>"], decoder: jsonCalls({ nameIsKey: true }) }],
  ignore: ["<|assistant_end|>"],
};
