/**
 * Muse Glimmer (muse-glimmer.jinja; vLLM's `muse_glimmer` tool parser): ATEM messages, each
 * `<|start|>assistant to=RECIPIENT<|message|>BODY` ended by `<|eom|>` or `<|eot|>`. `to=self` is the
 * reasoning channel; a call is a message to the tool whose body is
 * `<atem:function_calls>\n<atem:invoke name="f">\n<atem:parameter name="k">v</atem:parameter>\n
 * </atem:invoke>\n</atem:function_calls>` (strings as they are, lists and objects as JSON). The body's
 * own invoke names the tool, so a message to a tool is read as text holding a call region, its header
 * protocol once a call to that tool in it succeeds. The generation prompt ends with `<|start|>assistant`.
 * Its grammar (src/grammar/channels.ts) writes `to=self` reasoning, `to=user` text and one call per
 * message to the tool, the messages of a turn ended as the template ends them (`ends`).
 */
import { defineFormat } from "../parse/language.js";

export const museGlimmer = defineFormat({
  id: "muse-glimmer",
  description: "Muse Glimmer: ATEM channels, <atem:invoke>/<atem:parameter> tags",
  // Its template also writes `<|channel|>`-free harmony-like headers, but never `<|channel|>`.
  detect: { anyOf: [["<atem:function_calls>"]] },
  regions: [
    {
      start: ["<atem:function_calls>"],
      end: ["</atem:function_calls>"],
      payload: {
        kind: "tagged",
        call: { open: ['<atem:invoke name="{name}">'], close: "</atem:invoke>" },
        params: { open: ['<atem:parameter name="{key}">'], close: "</atem:parameter>" },
        untyped: "json",
      },
    },
  ],
  channels: {
    headerStart: ["<|start|>"],
    headerEnd: ["<|message|>"],
    bodyEnd: ["<|eom|>", "<|eot|>"],
    // `assistant to=RECIPIENT` (self, user or a tool), or `assistant` alone (the template writes both).
    // The first three are what the template writes; a grammar writes the first one the rules route to
    // each target, so they come first (the last pattern reads them all too).
    headers: ["assistant to=self", "assistant to=user", "assistant to={name}", "[assistant][ to={name}]"],
    rules: [
      { whole: "[assistant] to=self", to: "reasoning" },
      { whole: "[assistant] to=user", to: "content" },
      { whole: "[assistant] to={name}", to: "calls" },
    ],
    otherwise: "content",
    callPayload: { kind: "json-args" },
    startsInHeader: true,
    // The template ends a message that another of the turn follows with <|eom|>, the turn's last with <|eot|>.
    ends: { message: "<|eom|>", call: "<|eom|>", output: "<|eot|>", callOutput: "<|eot|>" },
  },
});
