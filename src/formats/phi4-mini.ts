/** Microsoft Phi-4-mini: `functools[{"name": "f", "arguments": {...}}]`. */
import { defineFormat } from "../parse/language.js";

export const phi4Mini = defineFormat({
  id: "phi4-mini",
  description: "Phi-4-mini: functools[...] JSON array",
  detect: { anyOf: [["functools["]] },
  regions: [{ start: ["functools["], startInPayload: 1, payload: { kind: "json-calls" } }],
  ignore: ["<|end|>"],
});
