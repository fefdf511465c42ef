/**
 * Google FunctionGemma (google/functiongemma-270m-it; template: vLLM's
 * examples/tool_chat_template_functiongemma.jinja, and its `functiongemma` tool parser):
 * `<start_function_call>call:f{city:<escape>Paris<escape>,n:3}<end_function_call>`, one call per
 * region, several regions for parallel calls. Gemma 4's argument syntax with `<escape>` as the string
 * quote (literal dialect `functiongemma`: bare keys, raw string text, nested `{...}`/`[...]`). The
 * model's turn ends with `<end_of_turn>`; `<start_function_response>` is where it stops after its
 * calls (the tool's answer comes next).
 *
 * The model's own template (google/functiongemma-270m-it's chat_template) is not in the source index;
 * Google's documentation and the peers' parsers agree with vLLM's example on the call syntax.
 *
 * vLLM's template writes every value between `<escape>` tokens (`n:<escape>3<escape>`), Google's
 * format writes numbers and booleans bare: the dialect types a quoted value by the tool's schema when
 * the schema allows no string for it (`3` for an integer `n`), as vLLM's parser does; a value that
 * does not read as the type stays the model's string, and the schema check reports it.
 */
import { defineFormat } from "../parse/language.js";

export const functiongemma = defineFormat({
  id: "functiongemma",
  description: "FunctionGemma: <start_function_call>call:f{k:<escape>v<escape>}<end_function_call>",
  detect: { anyOf: [["<start_function_call>call:"]] },
  regions: [{ start: ["<start_function_call>"], end: ["<end_function_call>"], payload: { kind: "literal-calls", dialect: "functiongemma", namePrefix: "call:" } }],
  ignore: ["<end_of_turn>", "<start_function_response>"],
  tolerate: [
    // Gemma 4 E2B prompted with this syntax (flutter_gemma) closes the call with `</end_function_call>`
    // and leaves out `call:`.
    { kind: "misspelled-closer", region: "<start_function_call>", closer: ["</end_function_call>"], evidence: "https://github.com/DenisovAV/flutter_gemma/issues/238" },
    { kind: "missing-name-prefix", prefix: "call:", evidence: "https://github.com/DenisovAV/flutter_gemma/issues/238" },
  ],
});
