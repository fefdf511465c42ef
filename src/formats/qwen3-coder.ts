/**
 * Qwen3-Coder, Qwen3.5, Nemotron 3 Nano, Step-3.5 (Qwen3-Coder.jinja, Qwen3.5-4B.jinja,
 * NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja, StepFun3.5-Flash.jinja):
 * `<tool_call>\n<function=f>\n<parameter=k>\nVALUE\n</parameter>\n</function>\n</tool_call>`, values typed
 * by the tool's schema; keys the schema does not declare stay strings (Qwen3-Coder's reference
 * parser). Qwen3.5 sometimes leaves out `<tool_call>`: a bare `<function=` opens a call that ends with
 * its `</function>` (prose that merely mentions `<function=x>` stays text). Qwen models also know the
 * Hermes JSON form, so a `<tool_call>` whose payload starts with `{` is read as JSON. Reasoning in
 * `<think>...</think>` (the generation prompt may already open it). Tolerated (reported as repairs): a
 * one-line value padded with spaces where the template writes its newlines (`<parameter=k> v </parameter>`).
 */
import { defineFormat } from "../parse/language.js";
import type { Payload } from "../parse/language.js";

/** The tags, shared with Seed-OSS. */
export const QWEN3_CODER_TAGS = {
  kind: "tagged",
  call: { open: ["<function={name}>"], close: "</function>" },
  params: { open: ["<parameter={key}>"], close: "</parameter>" },
  afterParam: ["<parameter=", "</function>", "<function="],
  afterParamNewline: true,
  implicitEnds: [{ tag: "<parameter=" }, { tag: "</function>", after: ["<function="] }],
  untyped: "string",
} as const satisfies Payload;

export const qwen3Coder = defineFormat({
  id: "qwen3-coder",
  description: "Qwen3-Coder / Qwen3.5 / Nemotron 3 Nano / Step-3.5: <function=f><parameter=k> tags",
  detect: { anyOf: [["<function=", "<parameter="]], before: ["hermes"] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    { start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "by-first-char", cases: { "{": { kind: "json-calls" } }, otherwise: QWEN3_CODER_TAGS } },
    { start: ["<function="], startInPayload: true, quietIfNotCall: true, payload: QWEN3_CODER_TAGS },
  ],
  ignore: ["<|im_end|>"],
  tolerate: [
    // Qwen3-Coder / Qwen3.5 leave out `<tool_call>` but still write its closer after `</function>`.
    { kind: "stray-closer", after: "<function=", closer: ["</tool_call>"], missing: "<tool_call>", evidence: "https://github.com/ollama/ollama/pull/17742" },
    // Qwen3.6 27B (AWQ) answers with bare JSON calls: a list of call objects, or one object keyed
    // `tool_name` / `tool_input`, with no <tool_call> around them.
    { kind: "bare-call", evidence: "https://github.com/1CatAI/1Cat-vLLM/issues/26" },
    { kind: "key-alias", nameKeys: ["tool_name"], argsKeys: ["tool_input"], evidence: "https://github.com/1CatAI/1Cat-vLLM/issues/26" },
    // Qwen3-Coder 30B (Q3_K_M, llama.cpp) writes a one-line value with a space where the template writes
    // each newline: `<parameter=cmd> ls -lha </parameter>`.
    { kind: "padded-value", evidence: "https://github.com/docker/docker-agent/issues/2263" },
  ],
});
