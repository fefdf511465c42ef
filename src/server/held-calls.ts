/**
 * Streaming tool calls only once they are valid. The parser streams a call as soon as its name is
 * known and validates it when it closes; a call that then fails is reported at the end and its text
 * becomes content. Clients that build the message from the deltas (the openai SDKs' accumulators, the
 * Vercel AI SDK) would keep such a call. With calls held, each call's deltas are kept back and sent
 * whole at the end of the answer, only for calls the parser kept, numbered without gaps: the streamed
 * message is then exactly the non-streamed one. Text and reasoning are not held.
 */
import { issuesForMessage } from "../parse/fold.js";
import type { Delta, ParseIssue, ToolCallDelta } from "../types.js";

export interface HeldCall {
  id: string;
  name: string;
  arguments: string;
}

export class CallHolder {
  private readonly calls = new Map<number, HeldCall>();

  /** The delta without its tool_calls (now held), or undefined when nothing else was in it. */
  take(delta: Delta): Delta | undefined {
    const { tool_calls, ...rest } = delta;
    for (const tc of tool_calls ?? []) this.note(tc);
    return tool_calls === undefined || Object.keys(rest).length > 0 ? rest : undefined;
  }

  /** The calls that passed, in the parser's order (a dropped call's index is named in `errors`). */
  kept(errors: readonly ParseIssue[]): HeldCall[] {
    const dropped = new Set(errors.flatMap((e) => (e.index === undefined ? [] : [e.index])));
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([index]) => !dropped.has(index))
      .map(([, call]) => call);
  }

  private note(tc: ToolCallDelta): void {
    let call = this.calls.get(tc.index);
    if (call === undefined) this.calls.set(tc.index, (call = { id: "", name: "", arguments: "" }));
    if (tc.id !== undefined && call.id === "") call.id = tc.id;
    if (tc.function.name !== undefined && call.name === "") call.name = tc.function.name;
    if (tc.function.arguments !== undefined) call.arguments += tc.function.arguments;
  }
}

/**
 * Errors as the client sees them when nothing invalid was streamed: no `index` to drop, and a
 * repair's `call` renumbered as the kept calls are.
 */
export function withoutIndex(errors: readonly ParseIssue[]): ParseIssue[] {
  return issuesForMessage(errors);
}
