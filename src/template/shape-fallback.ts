/**
 * The render's fallback for tool-call shapes (spec rule 3c). The tool-call probe picks the message shape
 * (content `""` or None next to calls, arguments as values or JSON text) from a small conversation; a
 * template can still reject that shape on a real request (it raised on every probe shape for a reason of
 * its own, so the default was used, or the request carries something the probe does not). Then the
 * other shapes are tried on the real request, in the probe's order of preference, and the first that
 * renders wins; when every shape raises, the probed shape's error is the one reported. scripts/ref_render.py
 * (`expected`) does the same on the reference side.
 */
import { ChatwireError } from "../errors.js";
import type { TemplateInfo } from "../request/message-rules.js";
import { TOOL_CALL_SHAPES, type ToolCallShape } from "./caps.js";

/** The normalised conversation has an assistant tool call: the only kind whose render the shape changes. */
export function hasAssistantCalls(messages: readonly Record<string, unknown>[]): boolean {
  return messages.some((m) => m.role === "assistant" && Array.isArray(m.tool_calls) && m.tool_calls.length > 0);
}

/** `info` with the tool-call shape replaced (the probed answers it does not concern stay lazy). */
function withShape(info: TemplateInfo, shape: ToolCallShape): TemplateInfo {
  const shaped: TemplateInfo = {
    get readsContentParts() {
      return info.readsContentParts;
    },
    knowsDeveloperRole: info.knowsDeveloperRole,
    readsArgumentsAsString: shape.argumentsAsString,
    callContentAsNone: shape.contentNone,
    get callsOnePerMessage() {
      return info.callsOnePerMessage;
    },
  };
  if (info.namesRole !== undefined) shaped.namesRole = info.namesRole;
  if (info.readsContentPartsIn !== undefined) shaped.readsContentPartsIn = info.readsContentPartsIn;
  return shaped;
}

/**
 * Called when the render in the probed shape threw `failure`: renders in each other shape with
 * `attempt` (which normalises the request for the info it gets and renders it) and returns the first
 * prompt, or rethrows `failure`. Only a template's own failure is retried: a malformed request or a
 * render limit is not a matter of shape (and a limit would cost as much again per shape).
 */
export function renderInOtherShape(failure: unknown, info: TemplateInfo, messages: readonly Record<string, unknown>[], attempt: (info: TemplateInfo) => string): string {
  if (!(failure instanceof ChatwireError) || failure.code !== "template_error" || !hasAssistantCalls(messages)) throw failure;
  const probed = { contentNone: info.callContentAsNone === true, argumentsAsString: info.readsArgumentsAsString === true };
  for (const shape of TOOL_CALL_SHAPES) {
    if (shape.contentNone === probed.contentNone && shape.argumentsAsString === probed.argumentsAsString) continue;
    try {
      return attempt(withShape(info, shape));
    } catch {
      // this shape fails too: try the next
    }
  }
  throw failure;
}
