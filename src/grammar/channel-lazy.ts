/**
 * The lazy form of a channel format's `tool_choice: "auto"` grammar (llama.cpp's `grammar_lazy`): the
 * output is free until a call message's header starts, then the grammar takes the call and what may
 * follow it. It exists where a call header ends with a part that opens with a header start marker and
 * that the parser reads as that call wherever it is written: harmony's `<|channel|>commentary
 * to=functions.f <|constrain|>json` is the whole first message after the prompt's `<|start|>assistant`,
 * the tail of `<|start|>assistant<|channel|>commentary ...` later, and a header of its own after text.
 * The trigger is that part up to the tool's name (`<|channel|>commentary to=functions.`, a word), so
 * it fires at the same place for every tool. Functionary v3.2 has none: its first call (`f\n`, in the
 * header the prompt's `>>>` opened) opens with no marker at all.
 */
import type { FunctionTool } from "../types.js";
import { promptStart } from "../parse/channels.js";
import { compileFormat } from "../parse/compile-format.js";
import { NO_TOOL, readsAs, writtenHeader } from "./channel-headers.js";
import { callHeader, messageGrammar, NEXT } from "./channels.js";
import { alt, lit } from "./gbnf.js";
import type { LazyTrigger } from "./lazy-triggers.js";
import type { CallShape } from "./calls.js";
import { callMessageBody } from "./channel-call-bodies.js";
import type { EmitContext } from "./payloads.js";
import type { ToolRequest } from "./tool-request.js";

export interface ChannelLazy {
  rule: string;
  triggers: LazyTrigger[];
}

/** The lazy answer rule and its triggers, or undefined when the format's call headers have no such part. */
export function channelLazyBody(ctx: EmitContext, shape: CallShape, req: ToolRequest, promptSuffix: string | undefined): ChannelLazy | undefined {
  const { builder, format } = ctx;
  const grammar = messageGrammar(ctx, shape, req);
  if (grammar.tools.length === 0) return undefined;
  const start = promptStart(compileFormat(format), promptSuffix);
  const tail = (name: string): string | undefined => callTail(ctx, name, typeof start === "object" ? start.fromPrompt : undefined);
  const tails = grammar.tools.map((t) => tail(t.function.name));
  if (tails.some((t) => t === undefined)) return undefined;
  const call = (t: FunctionTool, i: number): string => `${lit(tails[i]!)} ${grammar.headerEnd} ${callMessageBody(ctx, shape, t)}`;
  const calls = builder.add("call-message-lazy", alt(grammar.tools.map(call)));
  const rule = builder.add("answer", `${calls} ${grammar.after("call", req.parallel ? "any" : "called")}`);
  // Up to the name: a probe name no tool has stops the common part exactly there.
  const probe = tail(NO_TOOL);
  const word = commonPrefix([...(tails as string[]), ...(probe === undefined ? [] : [probe])]);
  const words = format.channels!.headerStart.some((m) => word.startsWith(m) && word.length > m.length) ? [word] : [...new Set(tails as string[])];
  return { rule, triggers: words.map((w) => ({ kind: "word", word: w })) };
}

/**
 * The part of a call header to `name` from its last header start marker on, when it is read as that
 * call as a header of its own, and the first message's header (`fromPrompt`: the prompt opened it)
 * ends with it too.
 */
function callTail(ctx: EmitContext, name: string, fromPrompt: string | undefined): string | undefined {
  const { format } = ctx;
  const ch = format.channels!;
  const next = callHeader(format, name, NEXT);
  if (next === undefined) return undefined;
  const at = Math.max(...ch.headerStart.map((m) => next.lastIndexOf(m)));
  if (at < 0) return undefined;
  const tail = next.slice(at);
  const marker = ch.headerStart.find((m) => tail.startsWith(m))!;
  if (!readsAs(format, { opener: marker, fromPrompt: "", written: tail.slice(marker.length) }, { to: "call", name })) return undefined;
  if (fromPrompt === undefined) return tail;
  const first = writtenHeader(format, { to: "call", name }, { at: "first", fromPrompt });
  return first !== undefined && first.endsWith(tail) ? tail : undefined;
}

function commonPrefix(texts: readonly string[]): string {
  let out = texts[0] ?? "";
  for (const t of texts) while (!t.startsWith(out)) out = out.slice(0, -1);
  return out;
}
