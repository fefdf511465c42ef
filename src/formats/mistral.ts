/**
 * Mistral 7B v0.3, Nemo, Small 3.x, Magistral, Devstral, Ministral 3. Old form:
 * `[TOOL_CALLS][{"name": "f", "arguments": {...}, "id": "a1b2c3d4e"}]`; new form, repeated per call:
 * `[TOOL_CALLS]f[ARGS]{...}` or `[TOOL_CALLS]f[CALL_ID]a1b2c3d4e[ARGS]{...}` (v11 also wrote
 * `[TOOL_CALLS]f{...}`). Reasoning in `[THINK]...[/THINK]`. Ids must be 9 alphanumerics.
 */
import { dispatchByFirstChar } from "../parse/decoders/dispatch.js";
import { headerArgs } from "../parse/decoders/header-args.js";
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

const NAME = /^[A-Za-z0-9_.:-]+$/;

const named = headerArgs({
  headerEnd: ["[ARGS]"],
  braceEndsHeader: true,
  parseHeader(header) {
    const [name = "", id] = header.trim().split("[CALL_ID]");
    if (!NAME.test(name)) return undefined;
    return id !== undefined ? { name, id: id.trim() } : { name };
  },
});
const array = jsonCalls({ idKeys: ["id"] });

export const mistral: FormatDescription = {
  id: "mistral",
  description: "Mistral [TOOL_CALLS] (JSON array, or name[ARGS]{...} with [CALL_ID])",
  detect: { anyOf: [["[TOOL_CALLS]"]] },
  reasoning: [{ start: ["[THINK]"], end: ["[/THINK]"] }],
  regions: [{ start: ["[TOOL_CALLS]"], decoder: dispatchByFirstChar((first) => (first === "[" || first === "{" ? array : named)) }],
  ignore: ["</s>"],
  idStyle: "mistral",
};
