/**
 * DeepSeek V3.2 (deepseek-ai-DeepSeek-V3.2.jinja), DSML tags:
 * `<｜DSML｜function_calls>\n<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="k" string="true">v
 * </｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>`. `string="false"` values are JSON.
 * Reasoning in `<think>...</think>`; the turn ends with `<｜end▁of▁sentence｜>`.
 */
import { taggedDecoder } from "../parse/decoders/tagged.js";
import { DSML_SYNTAX } from "../parse/decoders/tagged-syntaxes.js";
import type { FormatDescription } from "./types.js";

export const deepseekV32: FormatDescription = {
  id: "deepseek-v3.2",
  description: "DeepSeek V3.2: DSML <｜DSML｜invoke>/<｜DSML｜parameter> tags",
  detect: { anyOf: [["DSML"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [{ start: ["<｜DSML｜function_calls>"], end: ["</｜DSML｜function_calls>"], decoder: taggedDecoder(DSML_SYNTAX) }],
  ignore: ["<｜end▁of▁sentence｜>"],
};
