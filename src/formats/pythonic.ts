/**
 * Llama 3.2 / Llama 4 pythonic tool calling (vLLM's llama3.2/llama4 pythonic templates), ToolACE:
 * `[get_weather(city='SF', unit="c"), f2()]`, a Python list of calls with literal keyword arguments,
 * optionally inside `<|python_start|>...<|python_end|>` (Llama 4). A bare list has no end marker: it
 * ends with its `]`. A `[` that does not start a call (`[1]`, `[see the docs]`) is prose.
 * Tolerated (each reported as a repair): the list in a ```tool_code or ```python fence, a lone ``` after it, a JSON call object inside
 * `<|python_start|>`, and a whole answer that is one call without its `[...]`, naming a declared tool.
 */
import { defineFormat } from "../parse/language.js";

export const pythonic = defineFormat({
  id: "pythonic",
  description: "Llama 3.2 / Llama 4 pythonic: [f(a=1, b=\"x\"), g()]",
  detect: { anyOf: [["[func_name1("], ["<|python_start|>"]], before: ["llama3-json"] },
  regions: [
    { start: ["<|python_start|>"], end: ["<|python_end|>"], payload: { kind: "literal-calls", dialect: "python" } },
    { start: ["["], startInPayload: true, quietIfNotCall: true, payload: { kind: "literal-calls", dialect: "python" } },
  ],
  ignore: ["<|eot_id|>", "<|eom_id|>", "<|eot|>", "<|eom|>"],
  tolerate: [
    // ---- wild-fix3: Gemma 7B (prompted for pythonic calls, BFCL) fences its list in ```python, or closes a fence it never opened ----
    { kind: "fence", open: ["```python"], around: "[", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/google_gemma-7b-it/gorilla_openfunctions_v1_test_multiple_function_result.json" },
    { kind: "fence-closer", after: "[", evidence: "https://github.com/HuanzhiMao/BFCL-Result/blob/b4adfc9be5e0c65e8dbb1340c689688eb92a9379/2024-08-11/result/google_gemma-7b-it/gorilla_openfunctions_v1_test_executable_parallel_function_result.json" },
    // ---- end of the wild-fix3 block ----
    // Gemma 3 (prompted for pythonic calls) writes its call list in a ```tool_code fence, after a sentence.
    { kind: "fence", open: ["```tool_code"], around: "[", evidence: "https://github.com/vllm-project/vllm/issues/14734" },
    // Llama 4 also speaks Llama 3's JSON calls, and may write one inside <|python_start|>.
    { kind: "other-syntax", region: "<|python_start|>", when: "{", payload: { kind: "json-calls", argsKeys: ["parameters", "arguments"] }, evidence: "https://github.com/vllm-project/vllm/issues/16214" },
    // A Gemma 4 E4B fine-tune prompted for pythonic calls (BFCL) answers with one bare call, `f(a=1)`, no `[...]`.
    { kind: "bare-call", payload: { kind: "literal-calls", dialect: "python", list: false }, evidence: "https://github.com/ShishirPatil/gorilla/blob/c46a818b53da53fcde8150b1da020d62bb633985/berkeley-function-call-leaderboard/result/roshangrewal_gemma4-e4b-toolcall-v02/non_live/BFCL_v4_multiple_result.json" },
  ],
});
