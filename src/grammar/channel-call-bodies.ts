/**
 * The body of a channel message that calls a tool, as the header's route says the parser reads it: a
 * `call` route's body is the call's JSON arguments (functionary v3.2); a `calls` route's body is text
 * holding call regions, a call to the tool the header names making the header protocol (Glimmer's
 * `to=f<|message|><atem:function_calls>...`), so the grammar writes the format's own call region
 * holding one call to that tool, with the writers the non-channel formats use (calls.ts, payloads.ts).
 */
import type { FormatDescription } from "../formats/types.js";
import type { FunctionTool } from "../types.js";
import type { CallShape } from "./calls.js";
import { jsonCallBody, type EmitContext } from "./payloads.js";

/** Some message addressed to a tool holds call regions (a `calls` route). */
export function bodiesHoldRegions(format: FormatDescription): boolean {
  return format.channels?.rules.some((r) => r.to === "calls") === true;
}

/** Why the call bodies of the format's messages cannot be written, or undefined when they can. */
export function callBodyLimit(format: FormatDescription): string | undefined {
  const ch = format.channels!;
  if (ch.rules.some((r) => r.to === "call") && ch.callPayload.kind !== "json-args") {
    return `a call message's body is a ${ch.callPayload.kind} payload; the channel writer writes JSON argument bodies only`;
  }
  if (!bodiesHoldRegions(format)) return undefined;
  if (format.regions.length === 0) return "a message addressed to a tool holds call regions, and the format has none";
  if (ch.rules.some((r) => r.to === "call")) return "call messages of two kinds (JSON arguments and call regions); the channel writer writes one kind per format";
  return undefined;
}

/**
 * The body of a message whose header calls `tool`: the JSON arguments, or one call region (`shape`,
 * the format's regions) holding exactly one call to the tool, which is what makes the header
 * protocol when the parser reads it back.
 */
export function callMessageBody(ctx: EmitContext, shape: CallShape, tool: FunctionTool): string {
  return bodiesHoldRegions(ctx.format) ? shape.block([tool], true) : jsonCallBody(ctx, tool);
}
