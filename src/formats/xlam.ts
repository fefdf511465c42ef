/**
 * Salesforce xLAM-2 (vLLM's examples/tool_chat_template_xlam_qwen.jinja and its `xlam` tool parser):
 * the answer is a JSON array of call objects, `[{"name": "f", "arguments": {...}}, ...]`, at the start of
 * the output (after reasoning in `<think>...</think>`); vLLM's tests also show it in a ```json fence,
 * after `[TOOL_CALLS]` and inside `<tool_call>...</tool_call>`. A `[` later in prose is text.
 */
import { defineFormat } from "../parse/language.js";

export const xlam = defineFormat({
  id: "xlam",
  description: "xLAM: a JSON array of calls as the answer (bare, fenced, [TOOL_CALLS] or <tool_call>)",
  detect: { anyOf: [["Salesforce xLAM"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    { start: ["["], startInPayload: true, atStartOnly: true, quietIfNotCall: true, payload: { kind: "json-calls" } },
    { start: ["```json"], end: ["```"], quietIfNotCall: true, payload: { kind: "json-calls", array: true } },
    { start: ["[TOOL_CALLS]"], payload: { kind: "json-calls", array: true } },
    { start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "json-calls", array: true } },
  ],
  ignore: ["<|im_end|>"],
  tolerate: [
    // xLAM-7b-fc-r (the first xLAM, under BFCL's prompt) answers with {"tool_calls": [...]}.
    { kind: "bare-call", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/Salesforce_xLAM-7b-fc-r/gorilla_openfunctions_v1_test_parallel_multiple_function_result.json" },
    { kind: "wrapper-key", keys: ["tool_calls"], evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/Salesforce_xLAM-7b-fc-r/gorilla_openfunctions_v1_test_parallel_multiple_function_result.json" },
  ],
});
