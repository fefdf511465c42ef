/**
 * Python calls in tags, as agent frameworks prompt for them (OpenManus-style prompts):
 * `<tool_call>f(a="x", n=1)</tool_call>`, several of them wrapped in `<TOOL_BEGIN>...<TOOL_END>`.
 */
import { defineFormat } from "../parse/language.js";

export const taggedPythonic = defineFormat({
  id: "tagged-pythonic",
  description: "Python calls in <tool_call> tags: <tool_call>f(a=\"x\")</tool_call>",
  detect: { anyOf: [["<TOOL_BEGIN>"]], before: ["hermes"] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: ["<TOOL_BEGIN>"], end: ["<TOOL_END>"] }],
  regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "literal-calls", dialect: "python", list: true } }],
});
