/**
 * The grammar of a channel format's output (functionary v3.2, Muse Glimmer): a sequence of messages,
 * each a header then a body, the headers written so that the parser's own router (compile-format.ts)
 * sends each body where the grammar means it (channel-headers.ts): text to content or reasoning, a
 * call to the tool the header names, its body the JSON arguments or the format's call region holding
 * that call (channel-call-bodies.ts). Messages follow each other as tool_choice allows
 * (channel-turn.ts), separated and ended by the body ends the template writes (`channels.ends`). The
 * output starts where the parser says it does (channels.ts promptStart): inside the header the
 * generation prompt opened (the rest of it written first), or in content. Headers that hold a header
 * start marker (harmony's `<|start|>assistant<|channel|>analysis`) have no writer yet.
 */
import type { FormatDescription } from "../formats/types.js";
import type { FunctionTool } from "../types.js";
import { promptStart } from "../parse/channels.js";
import { compileFormat } from "../parse/compile-format.js";
import type { CallShape } from "./calls.js";
import { callBodyLimit, callMessageBody } from "./channel-call-bodies.js";
import { headersFor, type HeaderTarget, type TargetHeader } from "./channel-headers.js";
import { turnRule, type MessageRules } from "./channel-turn.js";
import { alt, lit } from "./gbnf.js";
import { formatMarkers } from "./markers.js";
import type { EmitContext } from "./payloads.js";
import { textWithout } from "./text-rules.js";
import { callableTools, type ToolRequest } from "./tool-request.js";

/** Why the channel writer cannot write this format, or undefined when it can. */
export function channelLimit(format: FormatDescription): string | undefined {
  const ch = format.channels;
  if (ch === undefined) return "the format has no channels";
  const bodies = callBodyLimit(format);
  if (bodies !== undefined) return bodies;
  if (ch.headers.some((h) => ch.headerStart.some((s) => h.includes(s)))) {
    return "the output is channel messages whose headers hold header start markers (<|channel|>); the emitter has no writer for those yet";
  }
  if (headersFor(format, { to: "content" }).length === 0) return "no header the router sends to content";
  return undefined;
}

/** The answer rule: messages as tool_choice allows, starting where the parser starts reading. */
export function channelBody(ctx: EmitContext, shape: CallShape, req: ToolRequest, promptSuffix: string | undefined): string {
  const { builder, format } = ctx;
  const ch = format.channels!;
  const start = promptStart(compileFormat(format), promptSuffix);
  const headerStart = lit(ch.headerStart[0]!);
  const headerEnd = lit(ch.headerEnd[0]!);
  // Text holds nothing the parser reacts to in content or reasoning (a header end is text there), and
  // does not end with the start of a marker written after it (`>` then functionary's `>>>`).
  const markers = formatMarkers(format).filter((m) => !ch.headerEnd.includes(m));
  const followedBy = [...ch.headerStart, ...(ch.ends === undefined ? [] : [ch.ends.more, ...(ch.ends.last === undefined ? [] : [ch.ends.last])])];
  const texts = new Map<string, string>();
  const text = (kind: "content" | "reasoning"): string => {
    let rule = texts.get(kind);
    if (rule === undefined) texts.set(kind, (rule = builder.capture(textWithout(builder, kind, markers, { followedBy }), { kind })));
    return rule;
  };
  // The header text the prompt wrote, when the output starts inside a header.
  const fromPrompt = typeof start === "object" ? start.fromPrompt : undefined;
  const message = (hint: string, target: HeaderTarget, body: (h: TargetHeader) => string): MessageRules | undefined => {
    const headers = headersFor(format, target);
    const h = headers[0];
    if (h === undefined) return undefined;
    // The body depends on the header's route only (JSON arguments or a call region): written once.
    const bodies = new Map<string, string>();
    const bodyOf = (x: TargetHeader): string => bodies.get(x.route) ?? bodies.set(x.route, body(x)).get(x.route)!;
    const next = builder.add(hint, `${headerStart} ${lit(h.text)} ${headerEnd} ${bodyOf(h)}`);
    const opener = fromPrompt === undefined ? undefined : headers.find((x) => x.text.startsWith(fromPrompt));
    if (opener === undefined) return { next };
    const rest = opener.text.slice(fromPrompt!.length);
    return { first: builder.add(`first-${hint}`, `${rest === "" ? "" : `${lit(rest)} `}${headerEnd} ${bodyOf(opener)}`), next };
  };
  const content = message("content-message", { to: "content" }, () => text("content"))!;
  const reasoning = message("reasoning-message", { to: "reasoning" }, () => text("reasoning"));
  // A tool whose header the router would read as another target is left out (functionary's `all`).
  const calls = callableTools(req)
    .map((t: FunctionTool) => message(`${t.function.name}-message`, { to: "call", name: t.function.name }, (h) => callMessageBody(ctx, shape, h, t)))
    .filter((m): m is MessageRules => m !== undefined);
  const call: MessageRules | undefined =
    calls.length === 0
      ? undefined
      : {
          next: builder.add("call-message", alt(calls.map((c) => c.next))),
          ...(calls.some((c) => c.first !== undefined) ? { first: builder.add("first-call-message", alt(calls.flatMap((c) => (c.first === undefined ? [] : [c.first])))) } : {}),
        };
  const more = ch.ends === undefined ? "" : lit(ch.ends.more);
  const last = ch.ends?.last === undefined ? "" : lit(ch.ends.last);
  const turn = (opened: boolean) =>
    turnRule(
      builder,
      {
        // Outside a header the output starts in content: its text alone, or a message it opens itself.
        content: opened ? content : { first: text("content"), next: content.next },
        ...(reasoning === undefined ? {} : { reasoning: opened ? reasoning : { first: reasoning.next, next: reasoning.next } }),
        ...(call === undefined ? {} : { call: opened ? call : { first: call.next, next: call.next } }),
        more,
        last,
      },
      req,
    );
  // A header the prompt opened that no message kind continues is read as content text.
  return (fromPrompt !== undefined ? turn(true) : undefined) ?? turn(false)!;
}
