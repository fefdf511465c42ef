/**
 * MeetKai Functionary v3.2: the generation prompt ends with `>>>`; the model writes a recipient line
 * then the body: `all\nSome text` (content) or `f\n{...}` (a call), and more messages as `>>>f2\n{...}`.
 */
import { defineFormat } from "../parse/language.js";

export const functionaryV32 = defineFormat({
  id: "functionary-v3.2",
  description: "Functionary v3.2: >>>recipient\\nbody messages",
  detect: { anyOf: [[">>>all"]] },
  regions: [],
  channels: {
    headerStart: [">>>"],
    headerEnd: ["\n"],
    bodyEnd: ["<|eot_id|>"],
    // A recipient line is `all`, a tool name, or empty; any other line (prose) is not a header.
    headers: ["all", "", "{name}"],
    rules: [
      { whole: "all", to: "content" },
      { whole: "", to: "content" },
      { whole: "{name}", to: "call" },
    ],
    otherwise: "content",
    callPayload: { kind: "json-args" },
    startsInHeader: true,
  },
});
