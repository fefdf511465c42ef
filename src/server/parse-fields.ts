/**
 * Request fields that say how the completion is parsed: chatwire's extensions to the OpenAI bodies,
 * top-level fields as vLLM's extensions are (an SDK sends them with `extra_body`). Checked before the
 * prompt is rendered, so a bad value is a 400 naming the field and nothing is generated.
 */
import { REASONING_CALLS, type ParseOptions, type ReasoningCalls } from "../parse/index.js";
import { badRequest } from "./api-error.js";

/** `reasoning_calls`: "call" (default) or "text", the parser's `reasoningCalls` (docs/parsing.md). */
export function readParseFields(body: Record<string, unknown>): Pick<ParseOptions, "reasoningCalls"> {
  const v = body.reasoning_calls;
  if (v === undefined || v === null) return {};
  if (!REASONING_CALLS.includes(v as ReasoningCalls)) throw badRequest("reasoning_calls", `must be "call" or "text", got ${JSON.stringify(v)}`);
  return { reasoningCalls: v as ReasoningCalls };
}
