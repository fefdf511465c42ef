/**
 * Hermes 2 Pro / 3, Qwen2.5, QwQ, Qwen3, Granite 4, Reka, Exaone, MiMo:
 * `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>` once per call. Qwen3 thinks in
 * `<think>...</think>` first and sometimes calls inside it; the last call may lack `</tool_call>`.
 * Tolerated (each reported as a repair): an `args` key, arguments as a JSON string, a whole answer that
 * is one bare call object naming a declared tool, a call object on its own line followed by
 * `</tool_call>` without its opener.
 */
import { defineFormat } from "../parse/language.js";

export const hermes = defineFormat({
  id: "hermes",
  description: "Hermes / Qwen2.5 / Qwen3 / Granite 4: JSON objects in <tool_call> tags",
  detect: { anyOf: [["<tool_call>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "json-calls" } }],
  ignore: ["<|im_end|>"],
  tolerate: [
    // Qwen2.5-Coder (quantized, long prompts) writes its call object in a ```json fence instead of <tool_call>.
    { kind: "fence", open: ["```json"], payload: { kind: "json-calls" }, evidence: "https://github.com/ardanlabs/kronk/pull/950" },
    // gemma3nTools (a Gemma 3n fine-tune served with a hermes template) writes `args`.
    { kind: "key-alias", argsKeys: ["args"], evidence: "https://github.com/ollama/ollama/issues/18357" },
    // Granite 4 writes its arguments as a JSON string holding the object.
    { kind: "key-alias", argsAsString: true, evidence: "https://github.com/vllm-project/vllm/pull/54964" },
    // Qwen2.5 14B (Q4_K_M, Ollama) leaves out <tool_call> but writes </tool_call> after the call object.
    { kind: "missing-opener", opener: "<tool_call>", evidence: "https://github.com/ollama/ollama/issues/13968" },
    // Qwen2.5-Coder answers with the bare call object, no <tool_call> around it (under tool_choice auto).
    { kind: "bare-call", evidence: "https://github.com/nicedreamzapp/claude-code-local/pull/43" },
  ],
});
