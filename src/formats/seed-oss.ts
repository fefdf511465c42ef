/**
 * ByteDance Seed-OSS (ByteDance-Seed-OSS.jinja): the Qwen3-Coder tags inside
 * `<seed:tool_call>...</seed:tool_call>`, reasoning in `<seed:think>...</seed:think>` (with
 * `<seed:cot_budget_reflect>` notes inside, which stay reasoning text). Undeclared keys are decoded as
 * JSON when they are JSON (llama.cpp's reading of Seed-OSS: `[1, 2, 3]` with no tools is a list).
 */
import { defineFormat } from "../parse/language.js";
import { QWEN3_CODER_TAGS } from "./qwen3-coder.js";

export const seedOss = defineFormat({
  id: "seed-oss",
  description: "ByteDance Seed-OSS: <function=f> tags in <seed:tool_call>, <seed:think> reasoning",
  detect: { anyOf: [["<seed:think>"], ["<seed:tool_call>"]], before: ["qwen3-coder"] },
  reasoning: [{ start: ["<seed:think>"], end: ["</seed:think>"] }],
  regions: [{ start: ["<seed:tool_call>"], end: ["</seed:tool_call>"], payload: { ...QWEN3_CODER_TAGS, untyped: "json" } }],
  ignore: ["<seed:eos>"],
  tolerate: [
    // Doubao Seed 2.0 Pro sometimes writes DSML's attribute tags inside <seed:tool_call>.
    {
      kind: "tag-alias",
      call: ['<function name="{name}">'],
      param: ['<parameter name="{key}"[ string="{string}"]>'],
      typedBy: { hole: "string", json: ["false"], string: ["true"] },
      evidence: "https://github.com/sipeed/picoclaw/issues/3153",
    },
  ],
});
