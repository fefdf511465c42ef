/**
 * The generation settings of a request, checked and mapped to backend-neutral Sampling. Chat
 * Completions and Responses name a few of them differently; each reader gets the field names it uses
 * so errors name the field the client actually sent.
 */
import { PyFloat } from "../jinja/py-float.js";
import { badRequest } from "./api-error.js";
import type { Sampling } from "./backends/types.js";

/** The JSON reader keeps `1.0` as PyFloat (for templates); sampling wants plain numbers. */
function numberOf(v: unknown): number | undefined {
  if (v instanceof PyFloat) return v.value;
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function optionalNumber(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  const n = numberOf(v);
  if (n === undefined || n < min || n > max) throw badRequest(field, `must be a number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return n;
}

function optionalInteger(body: Record<string, unknown>, field: string, min: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  const n = numberOf(v);
  if (n === undefined || !Number.isSafeInteger(n) || n < min) throw badRequest(field, `must be an integer >= ${min}, got ${JSON.stringify(v)}`);
  return n;
}

function optionalStop(body: Record<string, unknown>, field: string): string[] | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list) || !list.every((s): s is string => typeof s === "string" && s !== "")) {
    throw badRequest(field, "must be a non-empty string or an array of non-empty strings");
  }
  return list.length > 0 ? list : undefined;
}

/** `stream`: absent or a boolean. */
export function streamFlag(body: Record<string, unknown>): boolean {
  const v = body.stream;
  if (v === undefined || v === null) return false;
  if (typeof v !== "boolean") throw badRequest("stream", `must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

/** Which request fields carry the token limit (the first one present wins) and whether `stop` exists. */
export interface SamplingFields {
  maxTokens: readonly string[];
  stop: boolean;
}

export const CHAT_SAMPLING: SamplingFields = { maxTokens: ["max_completion_tokens", "max_tokens"], stop: true };
export const RESPONSES_SAMPLING: SamplingFields = { maxTokens: ["max_output_tokens"], stop: false };

export function readSampling(body: Record<string, unknown>, fields: SamplingFields): Sampling {
  const sampling: Sampling = {};
  const limitField = fields.maxTokens.find((f) => body[f] !== undefined && body[f] !== null);
  const maxTokens = limitField === undefined ? undefined : optionalInteger(body, limitField, 1);
  const temperature = optionalNumber(body, "temperature", 0, 2);
  const topP = optionalNumber(body, "top_p", 0, 1);
  const seed = optionalInteger(body, "seed", Number.MIN_SAFE_INTEGER);
  const stop = fields.stop ? optionalStop(body, "stop") : undefined;
  if (maxTokens !== undefined) sampling.maxTokens = maxTokens;
  if (temperature !== undefined) sampling.temperature = temperature;
  if (topP !== undefined) sampling.topP = topP;
  if (seed !== undefined) sampling.seed = seed;
  if (stop !== undefined) sampling.stop = stop;
  // One completion per request: the backends' raw endpoints produce one.
  const n = optionalInteger(body, "n", 1);
  if (n !== undefined && n !== 1) throw badRequest("n", "only n = 1 is supported");
  return sampling;
}
