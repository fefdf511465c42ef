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
});
