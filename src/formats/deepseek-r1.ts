/**
 * DeepSeek R1, V3-0324 and the R1 distills:
 * `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{...}\n```<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>`.
 * Markers use fullwidth `｜` and `▁` (U+2581); distills also write `_` or spaces for `▁`, and the
 * short `<｜tool▁calls｜>` that opens the group and the first call at once.
 */
import { headerArgs } from "../parse/decoders/header-args.js";
import type { FormatDescription } from "./types.js";
import { deepseekMarkers } from "./deepseek-markers.js";

const m = deepseekMarkers;

export const deepseekR1: FormatDescription = {
  id: "deepseek-r1",
  description: "DeepSeek R1 / V3-0324: function<｜tool▁sep｜>name + fenced JSON",
  detect: { anyOf: [["<｜tool▁calls▁begin｜>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: m("tool calls begin"), end: m("tool calls end") }],
  regions: [
    {
      start: [...m("tool call begin"), ...m("tool calls")],
      end: m("tool call end"),
      decoder: headerArgs({
        headerEnd: ["\n"],
        braceEndsHeader: true,
        fence: true,
        parseHeader(header) {
          const sep = m("tool sep").find((s) => header.includes(s));
          const name = (sep === undefined ? header : header.slice(header.indexOf(sep) + sep.length)).replace(/`+(json)?\s*$/, "").trim();
          return /^[^\s<>{}]+$/.test(name) ? { name } : undefined;
        },
      }),
    },
  ],
  ignore: [...m("tool calls end"), "<｜end▁of▁sentence｜>"],
};
