/**
 * Qwen3-Coder, Qwen3.5, Nemotron 3 Nano, Step-3.5 (Qwen3-Coder.jinja, Qwen3.5-4B.jinja,
 * NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja, StepFun3.5-Flash.jinja):
 * `<tool_call>\n<function=f>\n<parameter=k>\nVALUE\n</parameter>\n</function>\n</tool_call>`, values typed
 * by the tool's schema. Qwen3.5 sometimes leaves out `<tool_call>`: a bare `<function=` opens a call
 * that ends with its `</function>` (prose that merely mentions `<function=x>` stays text). Qwen models also know the Hermes JSON form, so a `<tool_call>` whose
 * payload starts with `{` is read as JSON. Reasoning in `<think>...</think>` (the generation prompt may
 * already open it).
 */
import { dispatchByFirstChar } from "../parse/decoders/dispatch.js";
import { jsonCalls } from "../parse/decoders/json-calls.js";
import { taggedDecoder } from "../parse/decoders/tagged.js";
import { QWEN3_CODER_SYNTAX } from "../parse/decoders/tagged-syntaxes.js";
import type { FormatDescription } from "./types.js";

const tagged = taggedDecoder(QWEN3_CODER_SYNTAX);
const json = jsonCalls();

export const qwen3Coder: FormatDescription = {
  id: "qwen3-coder",
  description: "Qwen3-Coder / Qwen3.5 / Nemotron 3 Nano / Step-3.5: <function=f><parameter=k> tags",
  detect: { anyOf: [["<function=", "<parameter="]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    { start: ["<tool_call>"], end: ["</tool_call>"], decoder: dispatchByFirstChar((first) => (first === "{" ? json : tagged)) },
    { start: ["<function="], startInPayload: true, quietIfNotCall: true, decoder: tagged },
  ],
  ignore: ["<|im_end|>"],
};
