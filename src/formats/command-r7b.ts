/**
 * Cohere Command R7B / Command A:
 * `<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "f", "parameters": {...}}]<|END_ACTION|>`; the
 * answer in `<|START_RESPONSE|>...<|END_RESPONSE|>` (wrappers dropped); reasoning in
 * `<|START_THINKING|>...<|END_THINKING|>`. The "0"/"1" call ids are positions, not usable ids, so
 * chatwire makes its own.
 */
import { defineFormat } from "../parse/language.js";

export const commandR7b = defineFormat({
  id: "command-r7b",
  description: "Command R7B / Command A: <|START_ACTION|> JSON array",
  detect: { anyOf: [["<|START_ACTION|>"]] },
  reasoning: [{ start: ["<|START_THINKING|>"], end: ["<|END_THINKING|>"] }],
  regions: [
    {
      start: ["<|START_ACTION|>"],
      end: ["<|END_ACTION|>"],
      payload: { kind: "json-calls", nameKeys: ["tool_name", "name"], argsKeys: ["parameters", "arguments"], array: true },
    },
  ],
  ignore: ["<|START_RESPONSE|>", "<|END_RESPONSE|>", "<|END_OF_TURN_TOKEN|>"],
});
