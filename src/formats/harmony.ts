/**
 * gpt-oss (harmony): a sequence of messages, each `<|start|>assistant<|channel|>NAME[ to=RECIPIENT]
 * [<|constrain|>json]<|message|>BODY` ended by `<|end|>`, `<|call|>` or `<|return|>`. The analysis
 * channel is reasoning, final (and commentary without a recipient: a preamble) is content, and a
 * message to `functions.f` is a call whose body is the arguments. The recipient may sit in the role
 * header (`<|start|>assistant to=functions.f<|channel|>commentary`) and on any channel; a body that
 * is not JSON is still that call's input. The generation prompt ends with `<|start|>assistant`.
 * The grammar (src/grammar/channels.ts) is read from the same data: the first header of `headers`
 * that routes to each target, and the body ends in `ends`.
 */
import { defineFormat } from "../parse/language.js";

/** The channels gpt-oss writes, and the content types it may write after a channel or recipient. */
const CHANNELS = ["analysis", "commentary", "final"];
const CONTENT_TYPE = "[[ ]<|constrain|>[ ]json][ json][ code]";

export const harmony = defineFormat({
  id: "harmony",
  description: "gpt-oss harmony channels",
  detect: { anyOf: [["<|channel|>"]] },
  regions: [],
  channels: {
    headerStart: ["<|start|>", "<|channel|>"],
    headerEnd: ["<|message|>"],
    bodyEnd: ["<|end|>", "<|call|>", "<|return|>"],
    // The headers gpt-oss writes, as the text after `<|start|>` (`assistant<|channel|>final`, the
    // recipient in the role or after the channel) or after `<|channel|>` (`analysis`), with a content
    // type after the channel or the recipient (`<|constrain|>json` before the recipient is a form
    // SGLang reads too). A recipient is one name (`functions.f`, `python`, `browser.search`), written
    // once: `to=a to=b` is no header.
    headers: [
      // What gpt-oss writes (openai/harmony's docs: `<|channel|>analysis<|message|>...<|end|><|start|>
      // assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{...}<|call|>`). The
      // grammar writes the first header here that the rules route to each target, so these come first.
      "assistant<|channel|>analysis",
      "assistant<|channel|>commentary to=functions.{name} <|constrain|>json",
      "assistant<|channel|>final",
      `[assistant][ to={name}]${CONTENT_TYPE}`,
      ...CHANNELS.flatMap((c) => [
        `[assistant][ to={name}]<|channel|>[ ]${c}${CONTENT_TYPE}`,
        // The recipient in the role's place (`to=functions.f<|channel|>commentary`), as openai/harmony
        // reads it (Ollama's harmony tests pin the same).
        `to={name}<|channel|>[ ]${c}${CONTENT_TYPE}`,
        `[assistant]<|channel|>[ ]${c}${CONTENT_TYPE} to={name}${CONTENT_TYPE}`,
        `${c}${CONTENT_TYPE}[ to={name}]${CONTENT_TYPE}`,
      ]),
    ],
    // The header starts after `<|start|>` (role first) or after `<|channel|>` (channel first).
    rules: [
      { start: "to=functions.{name}", to: "call" },
      { find: " to=functions.{name}", to: "call" },
      { start: "to={name}", to: "call" },
      { find: " to={name}", to: "call" },
      { find: "<|channel|>[ ]analysis", to: "reasoning" },
      { find: "<|channel|>", to: "content" },
      { start: "analysis", to: "reasoning" },
    ],
    otherwise: "content",
    callPayload: { kind: "json-args", rawText: true },
    startsInHeader: true,
    // A message ends with `<|end|>` when another follows, a call with `<|call|>` and the answer with
    // `<|return|>` (the template writes these; the last two are stop tokens, which engines leave out).
    ends: { message: "<|end|>", call: "<|call|>", output: "<|return|>" },
  },
});
