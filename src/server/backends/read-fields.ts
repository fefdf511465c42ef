/**
 * Small readers for the fields of a backend's JSON, shared by the protocols: a backend may omit
 * anything, so every reader tolerates absence and wrong types rather than trusting the shape.
 */
import { isObject } from "../../request/is-object.js";
import { BackendError, type BackendPiece, type Sampling, type TokenUsage } from "./types.js";

export function objectOf(json: unknown, what: string): Record<string, unknown> {
  if (!isObject(json)) throw new BackendError(`the backend sent ${what} that is not a JSON object`);
  const error = json.error;
  if (error !== undefined && error !== null) throw new BackendError(`the backend reported an error: ${errorText(error)}`);
  return json;
}

/** The message of an error in any of the shapes backends use (`"text"`, `{message}`, `{error: {message}}`). */
export function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (isObject(error)) {
    if (typeof error.message === "string") return error.message;
    if (error.error !== undefined) return errorText(error.error);
  }
  return JSON.stringify(error);
}

/**
 * A text field the protocol always sends. Absent or of another type means the answer is not what this
 * backend kind sends (a wrong `--backend-kind`, a proxy's error page in JSON): a BackendError (502), not
 * an empty message passed off as the model's answer.
 */
export function stringField(obj: Record<string, unknown>, key: string, what: string): string {
  const v = obj[key];
  if (typeof v !== "string") throw new BackendError(`the backend sent ${what} without a text field \`${key}\`: ${JSON.stringify(obj).slice(0, 200)}`);
  return v;
}

function count(v: unknown): number | undefined {
  return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined;
}

/** Token counts when the backend gave both; partial counts are not reported as usage. */
export function usageOf(prompt: unknown, completion: unknown): TokenUsage | undefined {
  const promptTokens = count(prompt);
  const completionTokens = count(completion);
  return promptTokens === undefined || completionTokens === undefined ? undefined : { promptTokens, completionTokens };
}

/** Sets `key` only when `value` is defined: backends apply their own defaults to absent fields. */
export function setDefined(body: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

/** The sampling settings every backend names alike; only the token limit's name differs. */
export function putSampling(target: Record<string, unknown>, sampling: Sampling, maxTokensName: string): void {
  setDefined(target, maxTokensName, sampling.maxTokens);
  setDefined(target, "temperature", sampling.temperature);
  setDefined(target, "top_p", sampling.topP);
  setDefined(target, "stop", sampling.stop);
  setDefined(target, "seed", sampling.seed);
}

/** A last piece: why the backend stopped, and its token counts when it gave both. */
export function lastPiece(text: string, hitLimit: boolean, promptTokens: unknown, completionTokens: unknown): BackendPiece {
  const piece: BackendPiece = { text, stop: hitLimit ? "length" : "stop" };
  const usage = usageOf(promptTokens, completionTokens);
  if (usage !== undefined) piece.usage = usage;
  return piece;
}
