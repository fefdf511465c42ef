/**
 * MiniMax M3 (MiniMax-M3.jinja). Every tag of a call is introduced by the special token
 * `]<]minimax[>[`, and arguments are XML elements named by their keys (macro `to_xml`):
 * `]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name="f">]<]minimax[>[<city>Paris]<]minimax[>[</city>
 * ]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>`; mappings nest, lists are `<item>` elements,
 * booleans are JSON, strings as they are. Reasoning in `<mm:think>...</mm:think>` (the generation prompt
 * may open it, or close it at once when thinking is disabled); a message ends with `[e~[`.
 */
import { defineFormat } from "../parse/language.js";

const NS = "]<]minimax[>[";

export const minimaxM3 = defineFormat({
  id: "minimax-m3",
  description: "MiniMax M3: ]<]minimax[>[-prefixed <invoke> with XML-element arguments, <mm:think> reasoning",
  // Its template also writes the M2 role tokens (`]~b]`).
  detect: { anyOf: [[NS], ["<mm:think>"]], before: ["minimax-m2", "hermes"] },
  reasoning: [{ start: ["<mm:think>"], end: ["</mm:think>"] }],
  regions: [
    {
      start: [`${NS}<tool_call>`],
      end: [`${NS}</tool_call>`],
      payload: {
        kind: "xml-calls",
        open: [`${NS}<`, ">"],
        close: [`${NS}</`, ">"],
        call: { element: "invoke", head: ['invoke name="{name}"'] },
        params: { by: "element" },
        itemTag: "item",
        untyped: "json",
      },
    },
  ],
  // A turn without reasoning starts with a bare `</mm:think>` (the template writes it): markup, dropped.
  ignore: ["[e~[", "</mm:think>"],
});
