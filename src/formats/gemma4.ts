/**
 * Gemma 4 (google-gemma-4-31B-it.jinja, google-gemma-4-31B-it-interleaved.jinja):
 * `<|tool_call>call:f{city:<|"|>London<|"|>,n:3}<tool_call|>` (macro format_argument: bare keys,
 * strings between `<|"|>` tokens with no escaping, nested `{...}` and `[...]`), thoughts in
 * `<|channel>thought\n...<channel|>`, the turn ends with `<turn|>` (or `<|tool_response>` after calls).
 */
import { defineFormat } from "../parse/language.js";

export const gemma4 = defineFormat({
  id: "gemma4",
  description: "Gemma 4: <|tool_call>call:f{k:<|\"|>v<|\"|>}<tool_call|>",
  detect: { anyOf: [["<|tool_call>call:"]] },
  // The template writes `<|channel>thought\n` + thoughts + `\n<channel|>`: the newlines belong to the
  // channel markup, not to the thoughts (a model may leave them out).
  reasoning: [{ start: ["<|channel>thought\n", "<|channel>thought"], end: ["\n<channel|>", "<channel|>"] }],
  regions: [{ start: ["<|tool_call>"], end: ["<tool_call|>"], payload: { kind: "literal-calls", dialect: "gemma", namePrefix: "call:" } }],
  // `<|tool_response>` is where the model stops after its calls (the tool's answer comes next).
  ignore: ["<turn|>", "<|tool_response>"],
  tolerate: [
    // Gemma 4 E2B falls back to Gemma 3's convention: a Python call in a ```tool_code fence.
    { kind: "fence", open: ["```tool_code"], payload: { kind: "literal-calls", dialect: "python" }, evidence: "https://github.com/waybarrios/vllm-mlx/pull/622" },
    // Gemma 4 (E4B; 26B in long agentic contexts) writes the argument list in round brackets, with
    // `=` (`call:f(city="Tokyo")`) or its own `:` (`call:f(command:<|"|>ls<|"|>)`).
    { kind: "argument-list", dialect: "gemma", open: "(", close: ")", assign: ["=", ":"], evidence: "https://github.com/vllm-project/vllm/issues/53642" },
    // Gemma 4 26B (NVFP4) sometimes writes only the `:` of `call:` (captured token for token).
    { kind: "missing-name-prefix", prefix: "call:", instead: [":"], evidence: "https://github.com/vllm-project/vllm/issues/53431" },
  ],
});
