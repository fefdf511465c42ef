/**
 * Sber GigaChat 3 / 3.1: the call is a message of the `function call` role:
 * `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {...}}` (or after
 * `<|function_call|>`). The JSON object ends the call.
 */
import { defineFormat } from "../parse/language.js";

export const gigachat3 = defineFormat({
  id: "gigachat3",
  description: "GigaChat 3: a `function call` role message holding a JSON object",
  detect: { anyOf: [["<|role_sep|>"]] },
  regions: [{ start: ["<|message_sep|>\n\nfunction call<|role_sep|>", "<|function_call|>"], payload: { kind: "json-calls" } }],
  ignore: ["<|message_sep|>", "</s>"],
});
