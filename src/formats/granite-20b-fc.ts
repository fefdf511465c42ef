/**
 * IBM Granite 20B FunctionCalling (vLLM's examples/tool_chat_template_granite_20b_fc.jinja and its
 * `granite-20b-fc` tool parser): `<function_call> {"name": "f", "arguments": {...}}` per call, the object
 * ends the call (no end marker), calls one after another; the turn ends with `<|endoftext|>`.
 */
import { defineFormat } from "../parse/language.js";

export const granite20bFc = defineFormat({
  id: "granite-20b-fc",
  description: "Granite 20B FC: <function_call> then a JSON call object",
  detect: { anyOf: [["<|function_call_library|>"]] },
  regions: [{ start: ["<function_call>"], payload: { kind: "json-calls" } }],
  ignore: ["<|endoftext|>"],
});
