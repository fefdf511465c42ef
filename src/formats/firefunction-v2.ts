/** Fireworks FireFunction v2: ` functools[{"name": "f", "arguments": {...}}]` (with a leading space). */
import { jsonCalls } from "../parse/decoders/json-calls.js";
import type { FormatDescription } from "./types.js";

export const firefunctionV2: FormatDescription = {
  id: "firefunction-v2",
  description: "FireFunction v2: functools[...] JSON array",
  detect: { anyOf: [[" functools["]] },
  // The `[` of the marker opens the JSON array; the space before `functools` belongs to the marker.
  regions: [{ start: [" functools[", "functools["], startInPayload: 1, decoder: jsonCalls() }],
  ignore: ["<|eot_id|>"],
};
