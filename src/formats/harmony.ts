/**
 * gpt-oss (harmony): a sequence of messages, each `<|start|>assistant<|channel|>NAME[ to=RECIPIENT]
 * [<|constrain|>json]<|message|>BODY` ended by `<|end|>`, `<|call|>` or `<|return|>`. The analysis
 * channel is reasoning, final (and commentary without a recipient: a preamble) is content, and a
 * message to `functions.f` is a call whose body is the arguments. The recipient may sit in the role
 * header (`<|start|>assistant to=functions.f<|channel|>commentary`) and on any channel; a body that
 * is not JSON is still that call's input. The generation prompt ends with `<|start|>assistant`.
 */
import { jsonArgs } from "../parse/decoders/json-args.js";
import type { ChannelRoute, FormatDescription } from "./types.js";

const RECIPIENT = /(?:^|\s)to=([^\s<]+)/;
const CHANNEL = /<\|channel\|>\s*([A-Za-z_]+)/;

function route(header: string): ChannelRoute {
  const to = RECIPIENT.exec(header)?.[1];
  if (to !== undefined) return { to: "call", name: to.startsWith("functions.") ? to.slice("functions.".length) : to };
  // The header starts after `<|start|>` (role first) or after `<|channel|>` (channel first).
  const channel = CHANNEL.exec(header)?.[1] ?? /^\s*([A-Za-z_]+)/.exec(header)?.[1] ?? "";
  return channel === "analysis" ? { to: "reasoning" } : { to: "content" };
}

export const harmony: FormatDescription = {
  id: "harmony",
  description: "gpt-oss harmony channels",
  detect: { anyOf: [["<|channel|>"]] },
  regions: [],
  channels: {
    headerStart: ["<|start|>", "<|channel|>"],
    headerEnd: ["<|message|>"],
    bodyEnd: ["<|end|>", "<|call|>", "<|return|>"],
    route,
    callDecoder: jsonArgs({ rawText: true }),
    startsInHeader: true,
  },
};
