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
import { headersFor, type HeaderTarget } from "./channel-headers.js";
import { turnRule, type TurnMessages } from "./channel-turn.js";
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
  const ends = ch.ends ?? {};
  const end = (e: string | undefined): string => (e === undefined ? "" : lit(e));
  const more = { reasoning: end(ends.message), content: end(ends.message), call: end(ends.call ?? ends.message) };
  const last = { reasoning: "", content: end(ends.output), call: end(ends.callOutput ?? ends.call) };
  // Text holds nothing the parser reacts to in content or reasoning (a region start would open a call
  // there; a header end is text), and does not end with the start of a marker written after it (`>`
  // then functionary's `>>>`).
  const markers = formatMarkers(format).filter((m) => !ch.headerEnd.includes(m));
  const followedBy = [...new Set([...ch.headerStart, ...Object.values(ends)])];
  const texts = new Map<string, string>();
  const text = (kind: "content" | "reasoning"): string => {
    let rule = texts.get(kind);
    if (rule === undefined) texts.set(kind, (rule = builder.capture(textWithout(builder, kind, markers, { followedBy }), { kind })));
    return rule;
  };
  // The header text the prompt wrote, when the output starts inside a header.
  const fromPrompt = typeof start === "object" ? start.fromPrompt : undefined;
  /** A message to `target` after another, and as the first one (the rest of the header the prompt opened). */
  const message = (hint: string, target: HeaderTarget, body: () => string): { next: string; first?: string } | undefined => {
    const headers = headersFor(format, target);
    if (headers.length === 0) return undefined;
    const b = body();
    const next = builder.add(hint, `${headerStart} ${lit(headers[0]!)} ${headerEnd} ${b}`);
    const opener = fromPrompt === undefined ? undefined : headers.find((h) => h.startsWith(fromPrompt));
    if (opener === undefined) return { next };
    const rest = opener.slice(fromPrompt!.length);
    return { next, first: builder.add(`first-${hint}`, `${rest === "" ? "" : `${lit(rest)} `}${headerEnd} ${b}`) };
  };
  const content = message("content-message", { to: "content" }, () => text("content"))!;
  const reasoning = message("reasoning-message", { to: "reasoning" }, () => text("reasoning"));
  // A tool whose header the router would read as another target is left out (functionary's `all`).
  const calls = callableTools(req).flatMap((t: FunctionTool) => {
    const m = message(`${t.function.name}-message`, { to: "call", name: t.function.name }, () => callMessageBody(ctx, shape, t));
    return m === undefined ? [] : [m];
  });
  const firsts = calls.flatMap((c) => (c.first === undefined ? [] : [c.first]));
  const messages: TurnMessages = { first: {}, next: { content: content.next }, more, last };
  if (reasoning !== undefined) messages.next.reasoning = reasoning.next;
  if (calls.length > 0) messages.next.call = builder.add("call-message", alt(calls.map((c) => c.next)));
  // Inside the header the prompt opened, the first message continues it; in content, the output
  // starts with text, or with a message that opens its own header.
  const inHeader: TurnMessages = { ...messages, first: {} };
  if (content.first !== undefined) inHeader.first.content = content.first;
  if (reasoning?.first !== undefined) inHeader.first.reasoning = reasoning.first;
  if (firsts.length > 0) inHeader.first.call = builder.add("first-call-message", alt(firsts));
  const inContent: TurnMessages = { ...messages, first: { ...messages.next, content: text("content") } };
  // A header the prompt opened that no message tool_choice allows continues is read as content text.
  return (fromPrompt !== undefined ? turnRule(builder, inHeader, req) : undefined) ?? turnRule(builder, inContent, req)!;
}
