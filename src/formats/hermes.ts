/**
 * Hermes 2 Pro / 3, Qwen2.5, QwQ, Qwen3, Granite 4, Reka, Exaone, MiMo:
 * `<tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>` once per call. Qwen3 thinks in
 * `<think>...</think>` first and sometimes calls inside it; the last call may lack `</tool_call>`.
 * Tolerated (each reported as a repair): an `args` key, arguments as a JSON string, a whole answer that
 * is one bare call object naming a declared tool, a call object on its own line followed by
 * `</tool_call>` without its opener, a call object in a ```json / ```xml fence or inside tags Hermes
 * does not have; and (Hermes-2-Theta / Hermes-2-Pro-Mistral) a call ended by <|im_start|>,
 * </tool_call> or <tool_call> written twice, a call opened by </tool_call>, a call object written as a
 * Python literal.
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
    // Qwen2 (mlx-omni-server) writes its call object in a ```xml fence after a sentence, or inside tags
    // Hermes does not have (<response><tools>, <function_call>), one of them in a ```xml fence too.
    { kind: "fence", open: ["```xml"], payload: { kind: "json-calls" }, anywhere: true, evidence: "https://github.com/madroidmaq/mlx-omni-server/issues/4" },
    { kind: "wrapper-tag", tags: [["<response>", "</response>"], ["<tools>", "</tools>"], ["<function_call>", "</function_call>"]], evidence: "https://github.com/madroidmaq/mlx-omni-server/issues/4" },
    { kind: "fence", open: ["```xml"], around: "<function_call>", evidence: "https://github.com/madroidmaq/mlx-omni-server/issues/4" },
    // Qwen2.5-Coder answers with the bare call object, no <tool_call> around it (under tool_choice auto).
    { kind: "bare-call", evidence: "https://github.com/nicedreamzapp/claude-code-local/pull/43" },
    // ---- wild-fix3: Hermes-2-Theta (a Llama-3 / ChatML merge, BFCL runs) repeats, swaps and replaces its markers ----
    // It ends a call with ChatML's <|im_start|> instead of </tool_call>.
    { kind: "foreign-closer", region: "<tool_call>", closer: ["<|im_start|>"], evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/NousResearch_Hermes-2-Theta-Llama-3-70B/gorilla_openfunctions_v1_test_rest_result.json" },
    // It closes a call twice.
    { kind: "repeated-closer", region: "<tool_call>", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/NousResearch_Hermes-2-Theta-Llama-3-8B/gorilla_openfunctions_v1_test_executable_parallel_function_result.json" },
    // It opens a call twice.
    { kind: "repeated-opener", region: "<tool_call>", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/NousResearch_Hermes-2-Theta-Llama-3-8B/gorilla_openfunctions_v1_test_executable_parallel_multiple_function_result.json" },
    // It opens a call with </tool_call>.
    { kind: "closer-as-opener", region: "<tool_call>", first: "{", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/NousResearch_Hermes-2-Theta-Llama-3-8B/gorilla_openfunctions_v1_test_parallel_function_result.json" },
    // Hermes-2-Pro-Mistral writes its call object as a Python literal ('...' strings) in BFCL's runs.
    { kind: "python-literal", region: "<tool_call>", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/NousResearch_Hermes-2-Pro-Mistral-7B/gorilla_openfunctions_v1_test_executable_multiple_function_result.json" },
    // ---- end of the wild-fix3 block ----
  ],
});
