/**
 * The fallback for models without a native call syntax that were prompted to answer in JSON (agent
 * frameworks): text, then a fenced block ```` ```json\n{"name": "f", "arguments": {...}}\n``` ````
 * (or a list of such). A JSON block that is not a call (no name) is just content. Never detected from
 * a template; chosen by id.
 */
import { defineFormat } from "../parse/language.js";

export const jsonBlock = defineFormat({
  id: "json-block",
  description: "A ```json block holding a call object or a list of them",
  regions: [{ start: ["```json"], end: ["```"], quietIfNotCall: true, payload: { kind: "json-calls", argsKeys: ["arguments", "parameters"] } }],
});
