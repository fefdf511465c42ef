/**
 * ByteDance Seed-OSS (ByteDance-Seed-OSS.jinja): the Qwen3-Coder tags inside
 * `<seed:tool_call>...</seed:tool_call>`, reasoning in `<seed:think>...</seed:think>` (with
 * `<seed:cot_budget_reflect>` notes inside, which stay reasoning text).
 */
import { taggedDecoder } from "../parse/decoders/tagged.js";
import { SEED_OSS_SYNTAX } from "../parse/decoders/tagged-syntaxes.js";
import type { FormatDescription } from "./types.js";

export const seedOss: FormatDescription = {
  id: "seed-oss",
  description: "ByteDance Seed-OSS: <function=f> tags in <seed:tool_call>, <seed:think> reasoning",
  detect: { anyOf: [["<seed:think>"], ["<seed:tool_call>"]] },
  reasoning: [{ start: ["<seed:think>"], end: ["</seed:think>"] }],
  regions: [{ start: ["<seed:tool_call>"], end: ["</seed:tool_call>"], decoder: taggedDecoder(SEED_OSS_SYNTAX) }],
  ignore: ["<seed:eos>"],
};
