/**
 * Sber GigaChat 3 / 3.1: the call is a message of the `function call` role:
 * `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {...}}` (or after
 * `<|function_call|>`). The JSON object ends the call.
 */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const gigachat3: FormatDescription = {
  id: "gigachat3",
  description: "GigaChat 3: a `function call` role message holding a JSON object",
  detect: { anyOf: [["<|role_sep|>"]] },
  regions: [
    {
      start: ["<|message_sep|>\n\nfunction call<|role_sep|>", "<|function_call|>"],
      decoder: jsonCalls(),
    },
  ],
  ignore: ["<|message_sep|>", "</s>"],
};
