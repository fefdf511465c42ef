/**
 * Python calls in tags, as agent frameworks prompt for them (OpenManus-style prompts):
 * `<tool_call>f(a="x", n=1)</tool_call>`, several of them wrapped in `<TOOL_BEGIN>...<TOOL_END>`.
 */
import { pythonicCalls } from "../parse/decoders/pythonic.js";
import type { FormatDescription } from "./types.js";

export const taggedPythonic: FormatDescription = {
  id: "tagged-pythonic",
  description: "Python calls in <tool_call> tags: <tool_call>f(a=\"x\")</tool_call>",
  detect: { anyOf: [["<TOOL_BEGIN>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: ["<TOOL_BEGIN>"], end: ["<TOOL_END>"] }],
  regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], decoder: pythonicCalls }],
};
