/**
 * One POST to a backend with Node's own http client: the completion request, sent on every generation.
 * fetch (undici) cost several times as much CPU per request (its Request and Response objects, web
 * streams for the body, abort-signal plumbing), a tenth of a served request. Keep-alive connections
 * come from Node's global agent, as fetch's did from its pool.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export interface PostAnswer {
  status: number;
  statusText: string;
  /** The body's bytes as they arrive; aborting the signal before its end ends it with an error. */
  body: AsyncIterable<Uint8Array>;
}

function abortError(): Error {
  const err = new Error("This operation was aborted");
  err.name = "AbortError";
  return err;
}

/**
 * Resolves once the answer's status and headers are in; rejects when the backend cannot be reached or
 * `signal` aborts first. An abort while the body is read cuts the connection (the backend stops its
 * work); once the body has ended it does nothing, and the connection is kept for the next request.
 */
export function post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError());
    const target = new URL(url);
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    let response: IncomingMessage | undefined;
    const onAbort = (): void => {
      const err = abortError();
      req.destroy(err);
      response?.destroy(err);
    };
    const release = (): void => signal.removeEventListener("abort", onAbort);
    const req = send(target, { method: "POST", headers: { ...headers, "content-length": String(Buffer.byteLength(body)) } }, (res) => {
      response = res;
      res.once("end", release);
      res.once("close", release);
      resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", body: res });
    });
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("error", (err) => {
      release();
      reject(err);
    });
    req.end(body);
  });
}
