/**
 * GLM-4.5 / 4.6 / 4.7, GLM-5 (GLM-4.6.jinja, GLM-4.7-Flash.jinja):
 * `<tool_call>f\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n</tool_call>`, newlines optional, zero
 * arguments `<tool_call>f</tool_call>`. Reasoning in `<think>...</think>`; the turn ends with
 * `<|observation|>` (a tool result is expected) or `<|user|>`. A payload that starts with `{` cannot
 * be a name; it is read as a JSON call object (the Hermes form) instead.
 */
import { dispatchByFirstChar } from "../parse/decoders/dispatch.js";
import { jsonCalls } from "../parse/decoders/json-calls.js";
import { taggedDecoder } from "../parse/decoders/tagged.js";
import { GLM_SYNTAX } from "../parse/decoders/tagged-syntaxes.js";
import type { FormatDescription } from "./types.js";

const tagged = taggedDecoder(GLM_SYNTAX);
const json = jsonCalls();

export const glm45: FormatDescription = {
  id: "glm-4.5",
  description: "GLM-4.5 / 4.6 / 4.7 / 5: <tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>",
  detect: { anyOf: [["<arg_key>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], decoder: dispatchByFirstChar((first) => (first === "{" ? json : tagged)) }],
  ignore: ["<|observation|>", "<|user|>", "<|endoftext|>"],
};
