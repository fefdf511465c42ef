/**
 * DeepSeek V3.2 (deepseek-ai-DeepSeek-V3.2.jinja) and V4 (deepseek-ai-DeepSeek-V4.jinja,
 * deepseek-ai-DeepSeek-V4-Flash-0731.jinja), DSML tags:
 * `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4), then
 * `<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="k" string="true">v</｜DSML｜parameter>\n</｜DSML｜invoke>`.
 * The templates write strings as they are (`string="true"`) and everything else as JSON
 * (`string="false"`), so an undeclared key is typed by that attribute; a declared key by its schema.
 * SGLang's tests also show the arguments as one JSON object inside the invoke, which is read too.
 * Reasoning in `<think>...</think>`; the turn ends with `<｜end▁of▁sentence｜>`.
 */
import { defineFormat } from "../parse/language.js";

const D = "｜DSML｜";

export const deepseekV32 = defineFormat({
  id: "deepseek-v3.2",
  description: "DeepSeek V3.2 / V4: DSML <｜DSML｜invoke>/<｜DSML｜parameter> tags",
  // Its templates also hold the R1 and V3.1 markers.
  detect: { anyOf: [["DSML"]], before: ["deepseek-v3.1", "deepseek-r1"] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  regions: [
    {
      start: [`<${D}function_calls>`, `<${D}tool_calls>`],
      end: [`</${D}function_calls>`, `</${D}tool_calls>`],
      payload: {
        kind: "tagged",
        call: { open: [`<${D}invoke name="{name}">`], close: `</${D}invoke>` },
        params: { open: [`<${D}parameter name="{key}"[ string="{string}"]>`], close: `</${D}parameter>`, typedBy: { hole: "string", json: ["false"], string: ["true"] } },
        untyped: "string",
        jsonBody: true,
      },
    },
  ],
  ignore: ["<｜end▁of▁sentence｜>"],
});
