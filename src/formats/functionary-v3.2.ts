/**
 * MeetKai Functionary v3.2: the generation prompt ends with `>>>`; the model writes a recipient line
 * then the body: `all\nSome text` (content) or `f\n{...}` (a call), and more messages as `>>>f2\n{...}`.
 */
import { jsonArgs } from "../parse/decoders/json-args.js";
import type { FormatDescription } from "./types.js";

export const functionaryV32: FormatDescription = {
  id: "functionary-v3.2",
  description: "Functionary v3.2: >>>recipient\\nbody messages",
  detect: { anyOf: [[">>>all"]] },
  regions: [],
  channels: {
    headerStart: [">>>"],
    headerEnd: ["\n"],
    bodyEnd: ["<|eot_id|>"],
    route(header) {
      const name = header.trim();
      return name === "all" || name === "" ? { to: "content" } : { to: "call", name };
    },
    callDecoder: jsonArgs(),
    startsInHeader: true,
  },
};
