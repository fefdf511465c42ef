/** Microsoft Phi-4-mini: `functools[{"name": "f", "arguments": {...}}]`. */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const phi4Mini: FormatDescription = {
  id: "phi4-mini",
  description: "Phi-4-mini: functools[...] JSON array",
  detect: { anyOf: [["functools["]] },
  regions: [{ start: ["functools["], startInPayload: 1, decoder: jsonCalls() }],
  ignore: ["<|end|>"],
};
