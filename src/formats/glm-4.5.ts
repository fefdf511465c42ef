/**
 * GLM-4.5 / 4.6 / 4.7, GLM-5 (GLM-4.6.jinja, GLM-4.7-Flash.jinja) and poolside Laguna
 * (poolside-Laguna-*.jinja, a GLM-style template):
 * `<tool_call>f\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>\n</tool_call>`, newlines optional, zero
 * arguments `<tool_call>f</tool_call>`. Undeclared keys are decoded as JSON when they are JSON, as GLM's
 * reference parser does. Reasoning in `<think>...</think>`; the turn ends with `<|observation|>` (a
 * tool result is expected) or `<|user|>`. A payload that starts with `{` cannot be a name; it is read
 * as a JSON call object (the Hermes form) instead.
 */
import { defineFormat } from "../parse/language.js";

export const glm45 = defineFormat({
  id: "glm-4.5",
  description: "GLM-4.5 / 4.6 / 4.7 / 5: <tool_call>f<arg_key>k</arg_key><arg_value>v</arg_value></tool_call>",
  // poolside Laguna templates also list `<available_tools>` (apriel).
  detect: { anyOf: [["<arg_key>"]], before: ["hermes", "apriel"] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    {
      start: ["<tool_call>"],
      end: ["</tool_call>"],
      payload: {
        kind: "by-first-char",
        cases: { "{": { kind: "json-calls" } },
        otherwise: {
          kind: "tagged",
          params: { key: { open: "<arg_key>", close: "</arg_key>" }, value: { open: "<arg_value>", close: "</arg_value>" } },
          // `<arg_key>k</arg_key><arg_value>` are special tokens: inside a value they start the next
          // parameter (the value's `</arg_value>` is missing), as Ollama's GLM parser repairs it.
          implicitEnds: [{ tag: "<arg_key>", inline: true, then: ["</arg_key>", "<arg_value>"] }],
          untyped: "json",
        },
      },
    },
  ],
  ignore: ["<|observation|>", "<|user|>", "<|endoftext|>"],
  tolerate: [
    // GLM-4.7 / GLM-5 leave out `<arg_value>` and still close the value: `<arg_key>k</arg_key>v</arg_value>`.
    { kind: "missing-value-opener", open: "<arg_value>", evidence: "https://github.com/vllm-project/vllm/issues/49248" },
    // GLM-4.7 leaves out the first `<arg_key>`, so the key runs into the name: `<tool_call>fk</arg_key>`.
    { kind: "missing-key-opener", open: "<arg_key>", evidence: "https://github.com/vllm-project/vllm/pull/47190" },
  ],
});
