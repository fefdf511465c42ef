/**
 * MeetKai Functionary v3.1 (Llama 3.1 based): `<function=f>{...}</function>`, and raw Python after
 * `<|python_tag|>` (a call to `python` with `{"code": ...}`).
 */
import { headerArgs } from "../parse/decoders/header-args.js";
import { pythonTag } from "../parse/decoders/python-tag.js";
import type { FormatDescription } from "./types.js";

export const functionaryV31: FormatDescription = {
  id: "functionary-v3.1",
  description: "Functionary v3.1: <function=name>{json}</function>",
  detect: { anyOf: [["<function=", "<|start_header_id|>"]] },
  regions: [
    {
      start: ["<function="],
      end: ["</function>"],
      decoder: headerArgs({
        headerEnd: [">"],
        parseHeader(header) {
          const name = header.trim();
          return /^[^\s<>{}]+$/.test(name) ? { name } : undefined;
        },
      }),
    },
    { start: ["<|python_tag|>"], end: ["<|eom_id|>", "<|eot_id|>"], decoder: pythonTag() },
  ],
  ignore: ["<|eom_id|>", "<|eot_id|>"],
};
