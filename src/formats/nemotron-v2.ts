/** NVIDIA Nemotron Nano v2: `<TOOLCALL>[{"name": "f", "arguments": {...}}]</TOOLCALL>`, reasoning in `<think>`. */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const nemotronV2: FormatDescription = {
  id: "nemotron-v2",
  description: "Nemotron Nano v2: <TOOLCALL> JSON array",
  detect: { anyOf: [["<SPECIAL_10>"], ["<TOOLCALL>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<TOOLCALL>"], end: ["</TOOLCALL>"], decoder: jsonCalls() }],
};
