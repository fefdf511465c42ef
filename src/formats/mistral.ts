/**
 * Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral 3. Old form:
 * `[TOOL_CALLS][{"name": "f", "arguments": {...}, "id": "a1b2c3d4e"}]`; new form, repeated per call:
 * `[TOOL_CALLS]f[ARGS]{...}` or `[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{...}` (v11 also wrote
 * `[TOOL_CALLS]f{...}`). Reasoning in `[THINK]...[/THINK]`. Ids must be 9 alphanumerics.
 */
import { defineFormat } from "../parse/language.js";
import type { Payload } from "../parse/language.js";

const array: Payload = { kind: "json-calls", idKeys: ["id"] };

export const mistral = defineFormat({
  id: "mistral",
  description: "Mistral [TOOL_CALLS] (JSON array, or name[ARGS]{...} with [CALL_ID])",
  detect: { anyOf: [["[TOOL_CALLS]"]] },
  reasoning: [{ start: ["[THINK]"], end: ["[/THINK]"] }],
  regions: [
    {
      start: ["[TOOL_CALLS]"],
      payload: {
        kind: "by-first-char",
        cases: { "[": array, "{": array },
        otherwise: { kind: "header-args", header: ["{name}\\[CALL_ID\\]{id}", "{name}"], headerEnd: ["[ARGS]"], braceEndsHeader: true },
      },
    },
  ],
  ignore: ["</s>"],
  idStyle: "mistral",
});
