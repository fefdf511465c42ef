/**
 * The grammar of a channel format's output (functionary v3.2): a sequence of messages, each a header
 * then a body, the headers written so that the parser's own router (compile-format.ts) sends each body
 * where the grammar means it: text to content, JSON arguments to a call of the tool the header names.
 * Headers are the format's header patterns filled in (the tool's name in `{name}`, optional parts left
 * out) and kept only when the router reads them back as that target. The output starts where the
 * parser says it does (channels.ts promptStart): inside the header the generation prompt opened, or in
 * content. Written for the channel formats whose calls are a `json-args` body routed by the header
 * alone (`call`), with headers that hold no header start marker; the others say why not.
 */
import type { FormatDescription } from "../formats/types.js";
import type { FunctionTool } from "../types.js";
import { promptStart } from "../parse/channels.js";
import { compileFormat } from "../parse/compile-format.js";
import { alt, lit, type GbnfBuilder } from "./gbnf.js";
import { fillPattern } from "./pattern-gbnf.js";
import { jsonCallBody, type EmitContext } from "./payloads.js";
import { textWithout } from "./text-rules.js";
import { callableTools, type ToolRequest } from "./tool-request.js";

/** Why the channel writer cannot write this format, or undefined when it can. */
export function channelLimit(format: FormatDescription): string | undefined {
  const ch = format.channels;
  if (ch === undefined) return "the format has no channels";
  if (format.regions.length > 0 || ch.callPayload.kind !== "json-args" || ch.rules.some((r) => r.to === "calls")) {
    return "the output is channel messages whose bodies hold call regions; the emitter has no writer for those yet";
  }
  if (ch.headers.some((h) => ch.headerStart.some((s) => h.includes(s)))) {
    return "the output is channel messages whose headers hold header start markers (<|channel|>); the emitter has no writer for those yet";
  }
  if (contentHeader(format) === undefined) return "no header the router sends to content";
  return undefined;
}

/** The header texts the format writes, filled with `name` (optional parts left out). */
function headersFor(format: FormatDescription, name: string): string[] {
  return [...new Set(format.channels!.headers.map((h) => fillPattern(h, { name })))];
}

function contentHeader(format: FormatDescription): string | undefined {
  const ch = compileFormat(format).channels!;
  // A name no tool has: the header must route to content for any request.
  return headersFor(format, "\u0000").find((h) => h !== "" && !h.includes("\u0000") && ch.protocol(h) && ch.route(h).to === "content");
}

function callHeader(format: FormatDescription, tool: string): string | undefined {
  const ch = compileFormat(format).channels!;
  return headersFor(format, tool).find((h) => {
    if (!ch.protocol(h)) return false;
    const r = ch.route(h);
    return r.to === "call" && r.name === tool;
  });
}

/** The answer rule: messages as tool_choice allows, starting where the parser starts reading. */
export function channelBody(ctx: EmitContext, req: ToolRequest, promptSuffix: string | undefined): string {
  const { builder, format } = ctx;
  const ch = format.channels!;
  const start = promptStart(compileFormat(format), promptSuffix);
  const headerStart = lit(ch.headerStart[0]!);
  const headerEnd = lit(ch.headerEnd[0]!);
  const markers = [...ch.headerStart, ...ch.bodyEnd];
  const text = builder.capture(textWithout(builder, "content", markers, { followedBy: ch.headerStart }), { kind: "content" });
  const content = builder.add("content-message", `${lit(contentHeader(format)!)} ${headerEnd} ${text}`);
  // A tool whose header the router would read as another target is left out (functionary's `all`).
  const tools = callableTools(req).filter((t) => callHeader(format, t.function.name) !== undefined);
  const callOf = (t: FunctionTool): string => `${lit(callHeader(format, t.function.name)!)} ${headerEnd} ${jsonCallBody(ctx, t)}`;
  const call = tools.length === 0 ? undefined : builder.add("call-message", alt(tools.map(callOf)));
  const message = call === undefined ? content : builder.add("message", `${content} | ${call}`);
  // The first message's header is the one the prompt opened (nothing of it written yet when the prompt
  // ends with the header start); otherwise the output starts in content and messages open their own.
  const opened = typeof start === "object" && start.fromPrompt === "";
  const next = (m: string): string => `${headerStart} ${m}`;
  if (req.choice.kind === "none" || call === undefined) return builder.add("answer", opened ? `${content} (${next(content)})*` : text);
  if (req.choice.kind === "auto") {
    if (!req.parallel) return builder.add("answer", opened ? `${content} (${next(content)})* (${next(call)})? | ${call}` : `${text} (${next(call)})?`);
    return builder.add("answer", opened ? `${message} (${next(message)})*` : `${text} (${next(message)})*`);
  }
  const rest = req.parallel ? ` (${next(call)})*` : "";
  return builder.add("answer", `${opened ? call : next(call)}${rest}`);
}
