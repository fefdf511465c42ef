/**
 * The grammar of a channel format's output (functionary v3.2, harmony): a sequence of messages, each a
 * header then a body, the headers written so that the parser's own router (compile-format.ts) sends
 * each body where the grammar means it: reasoning, text to content, JSON arguments to a call of the
 * tool the header names (channel-headers.ts picks and checks them; a header may hold header start
 * markers, as harmony's `assistant<|channel|>final` does). The output starts where the parser says it
 * does (src/parse/channels.ts promptStart): inside the header the generation prompt opened (the first header
 * continues it: `<|channel|>analysis` after `<|start|>assistant`), or in content. Bodies end with the
 * format's `ends` (harmony: `<|end|>` between messages, `<|call|>` after a call, `<|return|>` after the
 * answer; those at the end of the output are optional, being stop tokens). A call's body is its JSON
 * arguments (a `call` route) or, for a message addressed to the tool (a `calls` route: Glimmer's
 * `to=f<|message|><atem:function_calls>...`), the format's own call region holding that one call
 * (channel-call-bodies.ts).
 */
import { ChatwireError } from "../errors.js";
import type { FormatDescription } from "../formats/types.js";
import type { FunctionTool } from "../types.js";
import { promptStart } from "../parse/channels.js";
import { compileFormat } from "../parse/compile-format.js";
import type { CallShape } from "./calls.js";
import { callBodyLimit, callMessageBody } from "./channel-call-bodies.js";
import { endsLimit, messageEnds, writtenHeader, type HeaderPlace, type MessageTarget } from "./channel-headers.js";
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
  const ends = endsLimit(format);
  if (ends !== undefined) return ends;
  if (contentHeader(format, NEXT) === undefined) return "no header the router sends to content";
  return undefined;
}

export const NEXT: HeaderPlace = { at: "next" };

function contentHeader(format: FormatDescription, place: HeaderPlace): string | undefined {
  return writtenHeader(format, { to: "content" }, place);
}

export function callHeader(format: FormatDescription, tool: string, place: HeaderPlace): string | undefined {
  return writtenHeader(format, { to: "call", name: tool }, place);
}

export type Kind = "reasoning" | "content" | "call";

/**
 * The messages tool_choice allows, as states: which kinds of message may come next (and the state
 * after each), and whether the output may end here.
 */
interface State {
  next: Partial<Record<Kind, string>>;
  final: boolean;
}

function states(req: ToolRequest, calls: boolean): Record<string, State> {
  if (req.choice.kind === "none" || !calls) {
    return { start: { next: { reasoning: "thought", content: "text" }, final: false }, thought: { next: { content: "text" }, final: false }, text: { next: { content: "text" }, final: true } };
  }
  if (req.choice.kind === "auto") {
    if (!req.parallel) {
      return {
        start: { next: { reasoning: "thought", content: "text", call: "called" }, final: false },
        thought: { next: { content: "text", call: "called" }, final: false },
        text: { next: { content: "text", call: "called" }, final: true },
        called: { next: {}, final: true },
      };
    }
    return {
      start: { next: { reasoning: "thought", content: "any", call: "any" }, final: false },
      thought: { next: { content: "any", call: "any" }, final: false },
      any: { next: { content: "any", call: "any" }, final: true },
    };
  }
  // required or a named function: calls only, at least one.
  return {
    start: { next: { reasoning: "thought", call: "called" }, final: false },
    thought: { next: { call: "called" }, final: false },
    called: { next: req.parallel ? { call: "called" } : {}, final: true },
  };
}

/** The rules of a channel format's messages for one request (shared by the full and the lazy form). */
export interface MessageGrammar {
  /** The callable tools whose call header the router reads back as a call to them. */
  tools: readonly FunctionTool[];
  /** Content text (a body). */
  text(): string;
  /** The header end marker, as GBNF. */
  headerEnd: string;
  /** What follows a body of `kind` in state `name` (see `states`): the output's end, or more messages. */
  after(kind: Kind, name: string): string;
  /** The messages that may come in state `name` at `place`, each with what follows it. */
  choose(name: string, place: HeaderPlace): string | undefined;
}

export function messageGrammar(ctx: EmitContext, shape: CallShape, req: ToolRequest): MessageGrammar {
  const { builder, format } = ctx;
  const ch = format.channels!;
  const ends = messageEnds(format);
  const headerEnd = lit(ch.headerEnd[0]!);
  // Text holds nothing the parser reacts to in content or reasoning (a region start would open a call
  // there, as in a Glimmer body; a header end is text).
  const markers = formatMarkers(format).filter((m) => !ch.headerEnd.includes(m));
  // What may follow a text body: its end, or the next header's start.
  const followedBy = [...new Set([ends.message, ends.output, ...ch.headerStart].filter((m) => m !== ""))];
  // Built when first used (Functionary has no reasoning; a lazy grammar may have no text).
  const once = (make: () => string): (() => string) => {
    let rule: string | undefined;
    return () => (rule ??= make());
  };
  const text = once(() => builder.capture(textWithout(builder, "content", markers, { followedBy }), { kind: "content" }));
  const thought = once(() => builder.capture(textWithout(builder, "reasoning-text", markers, { followedBy }), { kind: "reasoning" }));
  // A tool whose header the router would read as another target is left out (functionary's `all`).
  const tools = callableTools(req).filter((t) => callHeader(format, t.function.name, NEXT) !== undefined);
  const table = states(req, tools.length > 0);
  const placeName = (place: HeaderPlace): string => (place.at === "next" ? "next" : "first");

  /** Each message of `kind` at `place`: header, header end, body (undefined: none can be written). */
  const messages = (kind: Kind, place: HeaderPlace): string | undefined => {
    if (kind === "call") {
      const one = tools.flatMap((t) => {
        const header = callHeader(format, t.function.name, place);
        return header === undefined ? [] : [`${lit(header)} ${headerEnd} ${callMessageBody(ctx, shape, t)}`];
      });
      return one.length === 0 ? undefined : builder.add(`call-message-${placeName(place)}`, alt(one));
    }
    const target: MessageTarget = { to: kind };
    const header = writtenHeader(format, target, place);
    if (header === undefined) return undefined;
    return builder.add(`${kind}-message-${placeName(place)}`, `${lit(header)} ${headerEnd} ${kind === "content" ? text() : thought()}`);
  };

  const rules = new Map<string, string>();
  const after = (kind: Kind, name: string): string => {
    const key = `${kind}@${name}`;
    const known = rules.get(key);
    if (known !== undefined) return known;
    const rule = builder.reserve(`after-${kind}-${name}`);
    rules.set(key, rule.name);
    const state = table[name]!;
    const options: string[] = [];
    if (state.final) {
      // The body end at the end of the output is a stop token: engines may leave it out of the text.
      const end = kind === "call" ? ends.callOutput : kind === "content" ? ends.output : "";
      options.push(end === "" ? '""' : `${lit(end)}?`);
    }
    const more = choose(name, NEXT);
    if (more !== undefined) {
      const end = kind === "call" ? ends.call : ends.message;
      options.push(end === "" ? more : `${lit(end)} ${more}`);
    }
    rule.define(options.length === 0 ? '""' : options.join(" | "));
    return rule.name;
  };
  const choose = (name: string, place: HeaderPlace): string | undefined => {
    const options = (Object.entries(table[name]!.next) as [Kind, string][]).flatMap(([kind, to]) => {
      const message = messages(kind, place);
      return message === undefined ? [] : [`${message} ${after(kind, to)}`];
    });
    return options.length === 0 ? undefined : alt(options);
  };
  return { tools, text, headerEnd, after, choose };
}

/** The answer rule: messages as tool_choice allows, starting where the parser starts reading. */
export function channelBody(ctx: EmitContext, shape: CallShape, req: ToolRequest, promptSuffix: string | undefined): string {
  const { builder, format } = ctx;
  const start = promptStart(compileFormat(format), promptSuffix);
  const { tools, text, after, choose } = messageGrammar(ctx, shape, req);
  // The first message's header is the one the prompt opened (a header start with nothing written after
  // it: the whole header); otherwise the output starts in content and messages open their own.
  if (typeof start === "object") {
    const answer = choose("start", { at: "first", fromPrompt: start.fromPrompt });
    if (answer === undefined) {
      throw new ChatwireError("unknown_format", `no grammar for format ${JSON.stringify(format.id)}: none of its headers continues the prompt's ${JSON.stringify(start.fromPrompt)}`);
    }
    return builder.add("answer", answer);
  }
  // The output starts in content: text, then messages as if after a text message (none after it when
  // only text is allowed); with calls only, the first call opens its own header.
  if (req.choice.kind === "none" || tools.length === 0) return builder.add("answer", text());
  if (req.choice.kind === "auto") return builder.add("answer", `${text()} ${after("content", req.parallel ? "any" : "text")}`);
  return builder.add("answer", choose("start", NEXT) ?? '""');
}
