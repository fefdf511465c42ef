/**
 * Tencent Hunyuan 3 (tencent-Hy3.jinja; vLLM's `hy_v3` tool parser): GLM-style calls in tokens that all
 * carry the `:opensource` suffix:
 * `<tool_calls:opensource>\n<tool_call:opensource>f<tool_sep:opensource>\n<arg_key:opensource>k</arg_key:opensource>\n
 * <arg_value:opensource>v</arg_value:opensource>\n</tool_call:opensource>\n</tool_calls:opensource>`,
 * values as they are for strings and JSON otherwise. Reasoning in `<think:opensource>...</think:opensource>`
 * (the generation prompt may open it); a message ends with `<｜hy_eos:opensource｜>`. The suffix is the
 * checkpoint's (vLLM's parser detects it from the vocabulary); vLLM's tests write the tags without one
 * (`<tool_calls><tool_call>f<tool_sep>...`), so that spelling is read too.
 */
import { defineFormat } from "../parse/language.js";
import type { RegionSpec } from "../parse/language.js";

const T = (tag: string): string => `<${tag}:opensource>`;
const P = (tag: string): string => `<${tag}>`;

/** A call in the tags of one spelling (`T`: with the suffix, `P`: without). */
const callRegion = (t: (tag: string) => string): RegionSpec => ({
  start: [t("tool_call")],
  end: [t("/tool_call")],
  payload: {
    kind: "tagged",
    nameSep: t("tool_sep"),
    params: { key: { open: t("arg_key"), close: t("/arg_key") }, value: { open: t("arg_value"), close: t("/arg_value") } },
    untyped: "json",
  },
});

export const hunyuanV3 = defineFormat({
  id: "hunyuan-v3",
  description: "Hunyuan 3 (Hy3): <tool_call:opensource>f<tool_sep:opensource><arg_key:opensource>... tags",
  detect: { anyOf: [["<tool_sep{}>", ":opensource"]] },
  reasoning: [{ start: [T("think")], end: [T("/think")] }],
  sections: [
    { start: [T("tool_calls")], end: [T("/tool_calls")] },
    { start: [P("tool_calls")], end: [P("/tool_calls")] },
  ],
  regions: [callRegion(T), callRegion(P)],
  ignore: ["<｜hy_eos:opensource｜>"],
});
