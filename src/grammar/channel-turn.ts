/**
 * The order of a channel format's messages in one turn, as tool_choice allows: reasoning first when
 * the format has a reasoning route, then
 *   none              content messages
 *   auto              content messages, then at most one call (parallel: content and calls, any order)
 *   required / named  calls only, at least one (one when parallel calls are off)
 * Each message kind is given twice: as the first message of the output (its header the rest of the
 * one the prompt opened, or, when the output starts in content, content text alone) and as a later
 * one (its own header start). `more` goes between messages, `last` may end the turn.
 */
import type { GbnfBuilder } from "./gbnf.js";
import type { ToolRequest } from "./tool-request.js";

export interface MessageRules {
  /** The message as the output's first one; undefined: it cannot open the output. */
  first?: string;
  /** The message after another: header start, header, header end, body. */
  next: string;
}

export interface TurnMessages {
  content: MessageRules;
  reasoning?: MessageRules;
  /** Any call message of the callable tools; undefined when none can be called. */
  call?: MessageRules;
  /** What goes between two messages (a body end, or nothing). */
  more: string;
  /** What may end the turn (a body end, or nothing). */
  last: string;
}

/** The answer rule, or undefined when no message tool_choice allows can open the output. */
export function turnRule(builder: GbnfBuilder, m: TurnMessages, req: ToolRequest): string | undefined {
  const after = (x: MessageRules): string => [m.more, x.next].filter((p) => p !== "").join(" ");
  const first = (x: MessageRules | undefined): string | undefined => x?.first;
  const content = m.content;
  const call = req.choice.kind === "none" ? undefined : m.call;
  const cn = `(${after(content)})*`;
  // The answer after its first message, that message written by `open` (undefined: not allowed there).
  const main = (open: (x: MessageRules) => string | undefined): string | undefined => {
    const alts = (xs: (string | undefined)[]): string | undefined => {
      const ok = xs.filter((x): x is string => x !== undefined);
      return ok.length === 0 ? undefined : ok.length === 1 ? ok[0] : `(${ok.join(" | ")})`;
    };
    const seq = (x: MessageRules, rest: string): string | undefined => {
      const o = open(x);
      return o === undefined ? undefined : `${o} ${rest}`.trimEnd();
    };
    if (call === undefined) return seq(content, cn);
    if (req.choice.kind === "auto") {
      if (!req.parallel) return alts([seq(content, `${cn} (${after(call)})?`), open(call)]);
      const any: MessageRules = { next: builder.add("channel-message", `${content.next} | ${call.next}`) };
      return alts([seq(content, `(${after(any)})*`), seq(call, `(${after(any)})*`)]);
    }
    return seq(call, req.parallel ? `(${after(call)})*` : "");
  };
  const opening = main(first);
  const later = main(after);
  const options: string[] = [];
  if (m.reasoning !== undefined && later !== undefined) {
    const r = first(m.reasoning);
    if (r !== undefined) options.push(`${r} ${later}`);
  }
  if (opening !== undefined) options.push(opening);
  const end = m.last === "" ? "" : ` (${m.last})?`;
  if (options.length === 0) return undefined;
  const answer = options.join(" | ");
  return builder.add("answer", `(${answer})${end}`);
}
