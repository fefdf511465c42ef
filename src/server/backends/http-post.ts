/**
 * One POST to a backend with Node's own http client: the completion request, sent on every generation.
 * fetch (undici) cost several times as much CPU per request (its Request and Response objects, web
 * streams for the body, abort-signal plumbing), a tenth of a served request. Keep-alive connections
 * come from Node's global agent, as fetch's did from its pool.
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { urlToHttpOptions } from "node:url";
import type { Cancel } from "./watchdog.js";

export interface PostAnswer {
  status: number;
  statusText: string;
  /** The body's bytes as they arrive; a cancel before its end ends it with an error. */
  body: IncomingMessage;
}

function abortError(): Error {
  const err = new Error("This operation was aborted");
  err.name = "AbortError";
  return err;
}

/** Request options by URL: a completion goes to one URL, parsed once (at most a few are kept). */
const targets = new Map<string, { send: typeof httpRequest; options: RequestOptions }>();

function targetOf(url: string): { send: typeof httpRequest; options: RequestOptions } {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    if (targets.size >= 16) targets.clear();
    target = { send: parsed.protocol === "https:" ? httpsRequest : httpRequest, options: urlToHttpOptions(parsed) };
    targets.set(url, target);
  }
  return target;
}

/**
 * Resolves once the answer's status and headers are in; rejects when the backend cannot be reached or
 * `cancel` fires first. A cancel while the body is read cuts the connection (the backend stops its
 * work); once the body has ended it does nothing, and the connection is kept for the next request.
 */
export function post(url: string, headers: Record<string, string>, body: string, cancel: Cancel): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    if (cancel.aborted) return reject(abortError());
    const { send, options } = targetOf(url);
    let response: IncomingMessage | undefined;
    const release = cancel.listen(() => {
      const err = abortError();
      req.destroy(err);
      response?.destroy(err);
    });
    const req = send({ ...options, method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      response = res;
      res.once("end", release);
      res.once("close", release);
      resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", body: res });
    });
    req.on("error", (err) => {
      release();
      reject(err);
    });
    req.end(body);
  });
}
