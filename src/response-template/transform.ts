/**
 * Reads a tool_calls `transform` as the call shape it builds. transformers' transforms are data
 * (`{"type": "function", "function": {"name": "{name}", "arguments": "{content}"}}`); the ones an
 * OpenAI call can come from say where the name, the arguments and (optionally) the id are found:
 * a regex capture, the parsed body, or a key of the parsed body. Any other shape is refused.
 */
import { refused, type Read } from "./markers.js";
import type { JsonValue } from "./types.js";

/** Where a call part comes from: a capture of the open pattern, the whole parsed body, or a key of it. */
export type Source = { from: "capture"; name: string } | { from: "content" } | { from: "content-key"; key: string };

export interface CallShape {
  /** The body as a whole is the function object (`"function": "{content}"`). */
  wholeFunction: boolean;
  name?: Source;
  arguments?: Source;
  id?: Source;
}

const isRecord = (v: unknown): v is Record<string, JsonValue> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `"{x}"` / `"{content}"` / `"{content.k}"` as a source; each element's own keys when `each`. */
function source(text: JsonValue | undefined, captures: readonly string[], each: boolean): Source | undefined {
  if (typeof text !== "string") return undefined;
  const m = /^\{([\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*)\}$/u.exec(text);
  if (m === null) return undefined;
  const path = m[1]!.split(".");
  if (path.length === 1 && captures.includes(path[0]!)) return { from: "capture", name: path[0]! };
  if (each && path.length === 1) return { from: "content-key", key: path[0]! };
  if (!each && path[0] === "content") return path.length === 1 ? { from: "content" } : path.length === 2 ? { from: "content-key", key: path[1]! } : undefined;
  return undefined;
}

export function readTransform(field: string, transform: JsonValue | undefined, captures: readonly string[], each: boolean): Read<CallShape> {
  const at = `${field}.transform`;
  if (!isRecord(transform)) return refused(at, "a transform that is not an object", "a tool call is an object {type, function: {name, arguments}}");
  const extra = Object.keys(transform).filter((k) => k !== "type" && k !== "function" && k !== "id");
  if (extra.length > 0) return refused(at, `the key${extra.length > 1 ? "s" : ""} ${extra.join(", ")}`, "an OpenAI tool call has only type, function and id");
  if (transform.type !== undefined && transform.type !== "function") return refused(`${at}.type`, JSON.stringify(transform.type), "only function calls exist");
  const id = transform.id === undefined ? undefined : source(transform.id, captures, each);
  if (transform.id !== undefined && id === undefined) return refused(`${at}.id`, JSON.stringify(transform.id), "the id must be a whole placeholder");
  const fn = transform.function;
  const whole = source(fn, captures, each);
  if (whole !== undefined) {
    if (whole.from !== "content") return refused(`${at}.function`, JSON.stringify(fn), "the function object must be the parsed body or {name, arguments}");
    return { ok: true, value: { wholeFunction: true, ...(id ? { id } : {}) } };
  }
  if (!isRecord(fn)) return refused(`${at}.function`, JSON.stringify(fn), "the function must be an object {name, arguments}");
  const extraFn = Object.keys(fn).filter((k) => k !== "name" && k !== "arguments");
  if (extraFn.length > 0) return refused(`${at}.function`, `the key${extraFn.length > 1 ? "s" : ""} ${extraFn.join(", ")}`, "a function has only name and arguments");
  const name = source(fn.name, captures, each);
  const args = source(fn.arguments, captures, each);
  if (name === undefined) return refused(`${at}.function.name`, JSON.stringify(fn.name), "the name must be a capture or a key of the body");
  if (args === undefined) return refused(`${at}.function.arguments`, JSON.stringify(fn.arguments), "the arguments must be the body or a key of it");
  return { ok: true, value: { wholeFunction: false, name, arguments: args, ...(id ? { id } : {}) } };
}
