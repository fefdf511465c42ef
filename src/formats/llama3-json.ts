/**
 * Llama 3.1 / 3.2 / 3.3 / 4 JSON tool calls: `{"name": "f", "parameters": {...}}` as the whole
 * answer (a call only at the very start of the output; several may follow separated by `;` or
 * newlines), or after `<|python_tag|>`, which also introduces the built-in tools:
 * `brave_search.call(query="...")` or plain code (a call to `python` with `{"code": ...}`).
 * Prose that contains `{` later on is content, never a call.
 */
import { defineFormat } from "../parse/language.js";
import type { Payload } from "../parse/language.js";

const calls: Payload = { kind: "json-calls", sequence: true, argsKeys: ["parameters", "arguments"] };

export const llama3Json = defineFormat({
  id: "llama3-json",
  description: "Llama 3.x JSON tool calls and <|python_tag|> built-ins",
  detect: { anyOf: [["<|start_header_id|>ipython<|end_header_id|>"]] },
  regions: [
    { start: ["{"], startInPayload: true, atStartOnly: true, quietIfNotCall: true, payload: calls },
    {
      start: ["<|python_tag|>"],
      end: ["<|eom_id|>", "<|eot_id|>"],
      payload: { kind: "by-first-char", cases: { "{": calls }, otherwise: { kind: "python-tag" } },
    },
  ],
  ignore: ["<|eom_id|>", "<|eot_id|>"],
  tolerate: [
    // Llama 3.2 3B wraps its call object in a ```json fence.
    { kind: "fence", open: ["```json"], payload: calls, evidence: "https://github.com/ollama/ollama/issues/13519" },
    // Llama 3.2 11B Vision (vLLM) wraps its call in OpenAI's shape: {"type": "function", "function": {...}}.
    { kind: "function-wrapper", keys: ["function"], evidence: "https://github.com/vllm-project/vllm/issues/11786" },
  ],
});
