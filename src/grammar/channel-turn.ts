/**
 * The order of a channel format's messages in one turn, as tool_choice allows: one reasoning message
 * first when the format has a reasoning route, then
 *   none              content messages
 *   auto              content messages, then at most one call (parallel: content and calls, any order)
 *   required / named  calls only, at least one (one when parallel calls are off)
 * written as states: each says which kinds of message may come next (and the state after each), and
 * whether the output may end there. Each message is followed by its kind's body end and the next
 * message, or, at the end, by its kind's final body end (optional: a stop token the engine may leave out).
 */
import type { GbnfBuilder } from "./gbnf.js";
import type { ToolRequest } from "./tool-request.js";

export type MessageKind = "reasoning" | "content" | "call";

export interface TurnMessages {
  /** Each kind as the output's first message (absent: it cannot open the output). */
  first: Partial<Record<MessageKind, string>>;
  /** Each kind after another message: its own header start, header, header end, body (absent: none). */
  next: Partial<Record<MessageKind, string>>;
  /** The body end after a message of each kind that another follows ("" for none). */
  more: Record<MessageKind, string>;
  /** The body end after the message of each kind that ends the output ("" for none). */
  last: Record<MessageKind, string>;
}

interface State {
  next: Partial<Record<MessageKind, string>>;
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
  return {
    start: { next: { reasoning: "thought", call: "called" }, final: false },
    thought: { next: { call: "called" }, final: false },
    called: { next: req.parallel ? { call: "called" } : {}, final: true },
  };
}

/** The answer rule, or undefined when no message tool_choice allows can open the output. */
export function turnRule(builder: GbnfBuilder, m: TurnMessages, req: ToolRequest): string | undefined {
  const table = states(req, m.next.call !== undefined);
  const seq = (...parts: string[]): string => parts.filter((p) => p !== "").join(" ");
  const afters = new Map<string, string>();
  // What follows a message of `kind` that led to state `name`: the end of the output, or the next message.
  const after = (kind: MessageKind, name: string): string => {
    const key = `${kind}@${name}`;
    const known = afters.get(key);
    if (known !== undefined) return known;
    const rule = builder.reserve(`after-${kind}-${name}`);
    afters.set(key, rule.name);
    const state = table[name]!;
    const options: string[] = [];
    if (state.final) options.push(m.last[kind] === "" ? "" : `(${m.last[kind]})?`);
    const more = choose(name, m.next);
    if (more !== undefined) options.push(seq(m.more[kind], more));
    rule.define(options.length === 0 ? '""' : options.join(" | ").trim() || '""');
    return rule.name;
  };
  // The messages state `name` allows, each written as `forms` gives it, with what may follow it.
  const choose = (name: string, forms: Partial<Record<MessageKind, string>>): string | undefined => {
    const options = (Object.entries(table[name]!.next) as [MessageKind, string][]).flatMap(([kind, to]) => {
      const message = forms[kind];
      return message === undefined ? [] : [`${message} ${after(kind, to)}`];
    });
    return options.length === 0 ? undefined : options.length === 1 ? options[0] : `(${options.join(" | ")})`;
  };
  const answer = choose("start", m.first);
  return answer === undefined ? undefined : builder.add("answer", answer);
}
