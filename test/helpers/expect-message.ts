/**
 * What the suites expect of a parse, and the one place that compares it. Arguments are compared as
 * parsed JSON (key order irrelevant); the exact argument text only when a case states it (JSON formats
 * keep the model's characters, which is worth pinning where unicode or spacing is the point).
 */
import { expect } from "vitest";
import type { ParseIssue, ParseResult } from "../../src/types.js";
import { parsedOrText } from "./canonical-json.js";

export interface ExpectedCall {
  name: string;
  /** The arguments as a JSON value, compared with the parsed `arguments` string. */
  arguments: unknown;
  /** When given, `function.arguments` must be exactly this text. */
  arguments_text?: string;
  /** When given, the call id must be exactly this (native ids: Kimi, Mistral). */
  id?: string;
}

export interface ExpectedMessage {
  content: string | null;
  reasoning_content?: string;
  tool_calls?: ExpectedCall[];
}

export interface ExpectedIssue {
  type: ParseIssue["type"];
  name?: string;
  /** `repaired` issues: the repair kind and the call (position in message.tool_calls) it belongs to. */
  repair?: ParseIssue["repair"];
  call?: number;
  text?: string;
  message?: string;
}

/** The id rule when a case does not state the id: Mistral's 9 alphanumerics, else `call_` + 24. */
export function idPattern(format: string): RegExp {
  return format === "mistral" ? /^[A-Za-z0-9]{9}$/ : /^call_[A-Za-z0-9]{24}$/;
}

/** Checks a parse result against what a case states; `label` says which run (one-shot, split...). */
export function expectResult(
  format: string,
  result: ParseResult,
  want: ExpectedMessage,
  issues: readonly ExpectedIssue[],
  label: string,
): void {
  const { message } = result;
  expect(message.role, label).toBe("assistant");
  expect(message.content, `${label}: content`).toBe(want.content);
  expect(message.reasoning_content, `${label}: reasoning_content`).toBe(want.reasoning_content);
  const calls = message.tool_calls ?? [];
  const wantCalls = want.tool_calls ?? [];
  // A message has no tool_calls key at all when there are none (semantics: "only when non-empty").
  if (wantCalls.length === 0) expect(message.tool_calls, `${label}: tool_calls`).toBeUndefined();
  expect(
    calls.map((c) => c.function.name),
    `${label}: call names`,
  ).toEqual(wantCalls.map((c) => c.name));
  calls.forEach((call, i) => {
    const w = wantCalls[i]!;
    const where = `${label}: call ${i} (${w.name})`;
    expect(call.type, where).toBe("function");
    // Text that is not JSON stays a string here and so cannot equal the stated value.
    expect(parsedOrText(call.function.arguments), `${where} arguments`).toEqual(w.arguments);
    if (w.arguments_text !== undefined) expect(call.function.arguments, `${where} arguments text`).toBe(w.arguments_text);
    if (w.id !== undefined) expect(call.id, `${where} id`).toBe(w.id);
    else expect(call.id, `${where} id`).toMatch(idPattern(format));
  });
  expect(result.finish_reason, `${label}: finish_reason`).toBe(calls.length > 0 ? "tool_calls" : "stop");
  expect(result.errors, `${label}: errors`).toEqual(issues.map((e) => expect.objectContaining(e)));
  expectTextKept(result, label);
}

/**
 * Never lose text: every issue's text is still in the content or the reasoning (a repair's text is the
 * markup it read as part of a valid call, which is not content).
 */
export function expectTextKept(result: ParseResult, label: string): void {
  const kept = `${result.message.content ?? ""}\u0000${result.message.reasoning_content ?? ""}`;
  for (const issue of result.errors) {
    if (issue.type === "repaired") {
      expect(issue.call, `${label}: repaired call`).toBeLessThan(result.message.tool_calls?.length ?? 0);
      continue;
    }
    expect(typeof issue.text, `${label}: ${issue.type} text`).toBe("string");
    if (issue.text !== "") expect(kept, `${label}: ${issue.type} text kept`).toContain(issue.text);
  }
}
