/**
 * DeepSeek R1, V3-0324 and the R1 distills:
 * `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{...}\n```<｜tool▁call▁end｜>...<｜tool▁calls▁end｜>`.
 * Markers use fullwidth `｜` and `▁` (U+2581); distills also write `_` or spaces for `▁`, and the
 * short `<｜tool▁calls｜>` that opens the group and the first call at once. Tolerated (reported as a
 * repair): LM Studio's prompted `[TOOL_REQUEST]{...}[END_TOOL_REQUEST]` after the reasoning.
 */
import { defineFormat } from "../parse/language.js";
import { deepseekMarkers as m, literal } from "./deepseek-markers.js";

export const deepseekR1 = defineFormat({
  id: "deepseek-r1",
  description: "DeepSeek R1 / V3-0324: function<｜tool▁sep｜>name + fenced JSON",
  detect: { anyOf: [["<｜tool▁calls▁begin｜>"]] },
  reasoning: [{ start: ["<think>"], end: ["</think>"] }],
  sections: [{ start: m("tool calls begin"), end: m("tool calls end") }],
  regions: [
    {
      start: [...m("tool call begin"), ...m("tool calls")],
      end: m("tool call end"),
      payload: {
        kind: "header-args",
        // `function<｜tool▁sep｜>f` (the type is optional), maybe with the fence's opening on the same line.
        // Whitespace around the name is not part of it (Ollama's Cogito parser trims it too).
        header: m("tool sep").map((sep) => `[function${literal(sep)}][ ]{name}[\`\`\`][json]`),
        headerEnd: ["\n"],
        braceEndsHeader: true,
        fence: true,
      },
    },
  ],
  ignore: [...m("tool calls end"), "<｜end▁of▁sentence｜>"],
  tolerate: [
    // R1 distills served by LM Studio without native tool use follow LM Studio's own prompted syntax.
    { kind: "stack-syntax", start: "[TOOL_REQUEST]", end: "[END_TOOL_REQUEST]", payload: { kind: "json-calls" }, evidence: "https://github.com/lmstudio-ai/mlx-engine/issues/97" },
  ],
});
