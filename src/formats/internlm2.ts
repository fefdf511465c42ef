/**
 * InternLM2 / InternLM2.5 (vLLM's examples/tool_chat_template_internlm2_tool.jinja and its `internlm`
 * tool parser; InternLM's own chat protocol docs): text, then
 * `<|action_start|><|plugin|>\n{"name": "f", "parameters": {...}}<|action_end|>` per call (the key may be
 * `arguments`); a message ends with `<|im_end|>`.
 */
import { defineFormat } from "../parse/language.js";

export const internlm2 = defineFormat({
  id: "internlm2",
  description: "InternLM2: <|action_start|><|plugin|> JSON call <|action_end|>",
  detect: { anyOf: [["<|action_start|><|plugin|>"], ["system name=<|plugin|>"]] },
  regions: [{ start: ["<|action_start|><|plugin|>"], end: ["<|action_end|>"], payload: { kind: "json-calls", argsKeys: ["parameters", "arguments"] } }],
  ignore: ["<|im_end|>"],
});
