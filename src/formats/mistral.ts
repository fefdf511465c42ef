/**
 * Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral 3. Old form:
 * `[TOOL_CALLS][{"name": "f", "arguments": {...}, "id": "a1b2c3d4e"}]`; new form, repeated per call:
 * `[TOOL_CALLS]f[ARGS]{...}` or `[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{...}` (v11 also wrote
 * `[TOOL_CALLS]f{...}`). Reasoning in `[THINK]...[/THINK]`. Ids must be 9 alphanumerics.
 * Tolerated (each reported as a repair): a whole answer that is the call list bare or as
 * `{"tool_calls": [...]}`, or a JSON-RPC request in a ``` fence.
 */
import { defineFormat } from "../parse/language.js";
import type { Payload } from "../parse/language.js";

const array: Payload = { kind: "json-calls", idKeys: ["id"] };

export const mistral = defineFormat({
  id: "mistral",
  description: "Mistral [TOOL_CALLS] (JSON array, or name[ARGS]{...} with [CALL_ID])",
  detect: { anyOf: [["[TOOL_CALLS]"]] },
  reasoning: [{ start: ["[THINK]"], end: ["[/THINK]"] }],
  regions: [
    {
      start: ["[TOOL_CALLS]"],
      payload: {
        kind: "by-first-char",
        cases: { "[": array, "{": array },
        otherwise: { kind: "header-args", header: ["{name}\\[CALL_ID\\]{id}", "{name}"], headerEnd: ["[ARGS]"], braceEndsHeader: true },
      },
    },
  ],
  ignore: ["</s>"],
  idStyle: "mistral",
  tolerate: [
    // Devstral (llama.cpp) answers with a bare {"tool_calls": [...]} object, llama.cpp's generic JSON
    // shape, instead of [TOOL_CALLS]; Mistral Large (API) with the bare call array
    // (https://github.com/mistralai/mistral-common/issues/73).
    { kind: "bare-call", evidence: "https://github.com/ggml-org/llama.cpp/issues/14697" },
    { kind: "wrapper-key", keys: ["tool_calls"], evidence: "https://github.com/ggml-org/llama.cpp/issues/14697" },
    // Mistral Nemo 12B (q4_1, Ollama) writes a JSON-RPC request (`method`/`params`) in a ``` fence.
    { kind: "fence", open: ["```"], payload: array, evidence: "https://github.com/ollama/ollama/issues/5976" },
    { kind: "key-alias", nameKeys: ["method"], argsKeys: ["params"], envelopeKeys: ["jsonrpc"], evidence: "https://github.com/ollama/ollama/issues/5976" },
  ],
});
