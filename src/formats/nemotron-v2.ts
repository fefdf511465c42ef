/** NVIDIA Nemotron Nano v2: `<TOOLCALL>[{"name": "f", "arguments": {...}}]</TOOLCALL>`, reasoning in `<think>`. */
import { defineFormat } from "../parse/language.js";

export const nemotronV2 = defineFormat({
  id: "nemotron-v2",
  description: "Nemotron Nano v2: <TOOLCALL> JSON array",
  detect: { anyOf: [["<SPECIAL_10>"], ["<TOOLCALL>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<TOOLCALL>"], end: ["</TOOLCALL>"], payload: { kind: "json-calls", array: true } }],
});
