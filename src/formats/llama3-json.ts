/**
 * Llama 3.1 / 3.2 / 3.3 / 4 JSON tool calls: `{"name": "f", "parameters": {...}}` as the whole
 * answer (a call only at the very start of the output; several may follow separated by `;` or
 * newlines), or after `<|python_tag|>`, which also introduces the built-in tools:
 * `brave_search.call(query="...")` or plain code (a call to `python` with `{"code": ...}`).
 * Prose that contains `{` later on is content, never a call.
 */
import { dispatchByFirstChar } from "../parse/decoders/dispatch.js";
import { jsonCalls } from "../parse/decoders/json-calls.js";
import { pythonTag } from "../parse/decoders/python-tag.js";
import type { FormatDescription } from "./types.js";

const calls = jsonCalls({ sequence: true });

export const llama3Json: FormatDescription = {
  id: "llama3-json",
  description: "Llama 3.x JSON tool calls and <|python_tag|> built-ins",
  detect: { anyOf: [["<|start_header_id|>ipython<|end_header_id|>"]] },
  regions: [
    { start: ["{"], startInPayload: true, atStartOnly: true, quietIfNotCall: true, decoder: calls },
    {
      start: ["<|python_tag|>"],
      end: ["<|eom_id|>", "<|eot_id|>"],
      decoder: dispatchByFirstChar((first) => (first === "{" ? calls : pythonTag())),
    },
  ],
  ignore: ["<|eom_id|>", "<|eot_id|>"],
};
