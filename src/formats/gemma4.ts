/**
 * Gemma 4 (google-gemma-4-31B-it.jinja, google-gemma-4-31B-it-interleaved.jinja):
 * `<|tool_call>call:f{city:<|"|>London<|"|>,n:3}<tool_call|>`, thoughts in
 * `<|channel>thought\n...<channel|>`, the turn ends with `<turn|>` (or `<|tool_response>` after calls).
 */
import { gemma4Calls } from "../parse/decoders/gemma4.js";
import type { FormatDescription } from "./types.js";

export const gemma4: FormatDescription = {
  id: "gemma4",
  description: "Gemma 4: <|tool_call>call:f{k:<|\"|>v<|\"|>}<tool_call|>",
  detect: { anyOf: [["<|tool_call>call:"]] },
  // The template writes `<|channel>thought\n` + thoughts + `\n<channel|>`: the newlines belong to the
  // channel markup, not to the thoughts (a model may leave them out).
  reasoning: [{ start: ["<|channel>thought\n", "<|channel>thought"], end: ["\n<channel|>", "<channel|>"] }],
  regions: [{ start: ["<|tool_call>"], end: ["<tool_call|>"], decoder: gemma4Calls }],
  // `<|tool_response>` is where the model stops after its calls (the tool's answer comes next).
  ignore: ["<turn|>", "<|tool_response>"],
};
