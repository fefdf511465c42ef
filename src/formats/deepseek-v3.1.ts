/**
 * DeepSeek V3.1 / V3.2-Exp: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{...}<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>`
 * (no `function` type before the separator, no fence). In thinking mode calls can appear inside
 * `<think>`.
 */
import { defineFormat } from "../parse/language.js";
import { deepseekMarkers as m } from "./deepseek-markers.js";

export const deepseekV31 = defineFormat({
  id: "deepseek-v3.1",
  description: "DeepSeek V3.1: name<｜tool▁sep｜>{json}",
  // Its templates also hold the R1 markers.
  detect: { anyOf: [["<｜tool▁sep｜>", "message['prefix']"], ["name'] + '<｜tool▁sep｜>'"]], before: ["deepseek-r1"] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: m("tool calls begin"), end: m("tool calls end") }],
  regions: [
    {
      start: m("tool call begin"),
      end: m("tool call end"),
      payload: { kind: "header-args", header: ["{name}"], headerEnd: m("tool sep") },
    },
  ],
  ignore: ["<｜end▁of▁sentence｜>"],
});
