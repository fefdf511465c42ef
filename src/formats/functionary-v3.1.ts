/**
 * MeetKai Functionary v3.1 (Llama 3.1 based): `<function=f>{...}</function>`, and raw Python after
 * `<|python_tag|>` (a call to `python` with `{"code": ...}`).
 */
import { defineFormat } from "../parse/language.js";

export const functionaryV31 = defineFormat({
  id: "functionary-v3.1",
  description: "Functionary v3.1: <function=name>{json}</function>",
  // Writes `<function=` like qwen3-coder and is Llama 3.1 based.
  detect: { anyOf: [["<function=", "<|start_header_id|>"]], before: ["qwen3-coder", "llama3-json"] },
  regions: [
    { start: ["<function="], end: ["</function>"], payload: { kind: "header-args", header: ["{name}"], headerEnd: [">"] } },
    { start: ["<|python_tag|>"], end: ["<|eom_id|>", "<|eot_id|>"], payload: { kind: "python-tag" } },
  ],
  ignore: ["<|eom_id|>", "<|eot_id|>"],
});
