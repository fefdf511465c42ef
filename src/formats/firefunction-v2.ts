/** Fireworks FireFunction v2: ` functools[{"name": "f", "arguments": {...}}]` (with a leading space). */
import { defineFormat } from "../parse/language.js";

export const firefunctionV2 = defineFormat({
  id: "firefunction-v2",
  description: "FireFunction v2: functools[...] JSON array",
  detect: { anyOf: [[" functools["]], before: ["phi4-mini"] },
  // The `[` of the marker opens the JSON array; the space before `functools` belongs to the marker.
  regions: [{ start: [" functools[", "functools["], startInPayload: 1, payload: { kind: "json-calls" } }],
  ignore: ["<|eot_id|>"],
});
