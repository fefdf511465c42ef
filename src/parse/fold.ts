/**
 * Folds streamed deltas back into a one-shot result, exactly as a client reassembling the stream:
 * text is concatenated, each call is built from its deltas by `index`, and the calls whose index
 * appears in the final delta's `errors` are dropped (they failed after they were streamed).
 * Nothing is re-indexed; one-shot errors omit `index`, and a repair's `call` names the position in
 * `message.tool_calls`.
 */
import type { AssistantMessage, Delta, FinishReason, ParseIssue, ParseResult, ToolCall } from "../types.js";

export function foldDeltas(deltas: readonly Delta[]): ParseResult {
  let content = "";
  let reasoning: string | undefined;
  const calls = new Map<number, ToolCall>();
  let finish: FinishReason = "stop";
  let errors: ParseIssue[] = [];
  for (const d of deltas) {
    if (d.content !== undefined) content += d.content;
    if (d.reasoning_content !== undefined) reasoning = (reasoning ?? "") + d.reasoning_content;
    for (const tc of d.tool_calls ?? []) {
      let call = calls.get(tc.index);
      if (call === undefined) {
        call = { id: tc.id ?? "", type: "function", function: { name: tc.function.name ?? "", arguments: "" } };
        calls.set(tc.index, call);
      }
      if (tc.id !== undefined && call.id === "") call.id = tc.id;
      if (tc.function.name !== undefined && call.function.name === "") call.function.name = tc.function.name;
      if (tc.function.arguments !== undefined) call.function.arguments += tc.function.arguments;
    }
    if (d.finish_reason !== undefined) finish = d.finish_reason;
    if (d.errors !== undefined) errors = d.errors;
  }
  const dropped = new Set(errors.flatMap((e) => (e.index === undefined ? [] : [e.index])));
  const toolCalls = [...calls.entries()].sort((a, b) => a[0] - b[0]).filter(([i]) => !dropped.has(i)).map(([, c]) => c);
  const message: AssistantMessage = { role: "assistant", content: content === "" && toolCalls.length > 0 ? null : content };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return { message, finish_reason: finish, errors: issuesForMessage(errors) };
}

/**
 * The final delta's errors as they read beside the assembled message: no `index` (the calls it named
 * are dropped), and a repair's `call` (a streamed index) becomes the call's position in
 * `message.tool_calls`. Streamed indices are 0, 1, 2 ... in order, so that position is the index less
 * the dropped calls before it.
 */
export function issuesForMessage(errors: readonly ParseIssue[]): ParseIssue[] {
  const dropped = errors.flatMap((e) => (e.index === undefined ? [] : [e.index]));
  return errors.map(({ index: _index, ...rest }) => {
    const call = rest.call;
    if (call === undefined) return rest;
    return { ...rest, call: call - dropped.filter((d) => d < call).length };
  });
}
