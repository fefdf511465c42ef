/**
 * DeepSeek V3.1 / V3.2-Exp: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{...}<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>`
 * (no `function` type before the separator, no fence). In thinking mode calls can appear inside
 * `<think>`.
 */
import { headerArgs } from "../parse/decoders/header-args.js";
import type { FormatDescription } from "./types.js";
import { deepseekMarkers } from "./deepseek-markers.js";

const m = deepseekMarkers;

export const deepseekV31: FormatDescription = {
  id: "deepseek-v3.1",
  description: "DeepSeek V3.1: name<｜tool▁sep｜>{json}",
  detect: { anyOf: [["<｜tool▁sep｜>", "message['prefix']"], ["name'] + '<｜tool▁sep｜>'"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: m("tool calls begin"), end: m("tool calls end") }],
  regions: [
    {
      start: m("tool call begin"),
      end: m("tool call end"),
      decoder: headerArgs({
        headerEnd: m("tool sep"),
        parseHeader(header) {
          const name = header.trim();
          return /^[^\s<>{}]+$/.test(name) ? { name } : undefined;
        },
      }),
    },
  ],
  ignore: ["<｜end▁of▁sentence｜>"],
};
