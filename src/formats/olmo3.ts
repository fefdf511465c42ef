/**
 * AllenAI Olmo 3 (vLLM's examples/tool_chat_template_olmo3.jinja and its `olmo3` tool parser): Python
 * calls, one per line, in `<function_calls>\nf(a='x', n=1)\ng()\n</function_calls>`; the template writes
 * strings in single quotes, `null`/`true`/`false` as JSON, other values as JSON. Olmo 3 Think models
 * reason in `<think>...</think>` first.
 */
import { defineFormat } from "../parse/language.js";

export const olmo3 = defineFormat({
  id: "olmo3",
  description: "Olmo 3: Python calls, one per line, in <function_calls>",
  detect: { anyOf: [["<function_calls>", "pythonic"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<function_calls>"], end: ["</function_calls>"], payload: { kind: "literal-calls", dialect: "python", list: false, sequence: true } }],
  ignore: ["<|im_end|>"],
});
