/**
 * Moonshot Kimi K3 (Kimi-K3.jinja; vLLM's `kimi_k3` tool parser): every tag is written with special
 * tokens, `<|open|>NAME ATTRS<|sep|>` ... `<|close|>NAME<|sep|>`. An assistant turn is
 * `<|open|>think<|sep|>...<|close|>think<|sep|>` (the generation prompt opens it when thinking), then
 * `<|open|>response<|sep|>text<|close|>response<|sep|>`, then the calls:
 * `<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="k" type="string"<|sep|>v
 * <|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`; a non-string argument is JSON and
 * says its type; the arguments may instead be one `<|open|>json type="object"<|sep|>{...}<|close|>json<|sep|>`.
 * The message ends with `<|close|>message<|sep|><|end_of_msg|>`.
 */
import { defineFormat } from "../parse/language.js";

const open = (tag: string): string => `<|open|>${tag}<|sep|>`;
const close = (tag: string): string => `<|close|>${tag}<|sep|>`;

export const kimiK3 = defineFormat({
  id: "kimi-k3",
  description: "Kimi K3: <|open|>call tool=\"f\"<|sep|> elements with <|open|>argument key=... type=...<|sep|>",
  detect: { anyOf: [["'<|open|>'", "'<|sep|>'"]] },
  reasoning: [{ start: [open("think")], end: [close("think")] }],
  regions: [
    {
      start: [open("tools")],
      end: [close("tools")],
      payload: {
        kind: "xml-calls",
        open: ["<|open|>", "<|sep|>"],
        close: ["<|close|>", "<|sep|>"],
        call: { element: "call", head: ['call tool="{name}"[ index="{index}"]'] },
        params: { by: "attribute", element: "argument", key: "key", type: "type" },
        jsonElement: "json",
        itemTag: "item",
        untyped: "json",
      },
    },
  ],
  ignore: [open("response"), close("response"), close("message"), "<|end_of_msg|>"],
});
