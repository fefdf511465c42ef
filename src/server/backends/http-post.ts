/**
 * One POST to a backend with Node's own http client: the completion request, sent on every generation.
 * fetch (undici) cost several times as much CPU per request (its Request and Response objects, web
 * streams for the body, abort-signal plumbing), a tenth of a served request. Keep-alive connections
 * come from Node's global agent, as fetch's did from its pool.
 *
 * The headers go as one flat array, made of lines fixed per URL and the body's length: Node then
 * writes them as given, where an object went through setHeader (validation, a header map) per field
 * and the options object was copied twice per request. The Host header, which Node adds only to
 * object headers, is ours then: the URL's host, as Node would print it.
 *
 * The body goes as bytes (json-text.ts's toJsonBytes): given as text, it was made flat in the JS heap
 * where its length was taken, and again where Node joined it to the head and wrote it (the body of a
 * request with tools is KBs of grammar, so these two copies were about 15% of the bytes a served
 * request allocated). Head and body still leave in one writev.
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

interface Target {
  send: typeof httpRequest;
  /** Where to connect (protocol, hostname, port, path), without method or headers. */
  place: RequestOptions;
  /** `Host` and, for a URL with credentials, `Authorization`, as name/value pairs. */
  fixed: readonly string[];
}

/** Request options by URL: a completion goes to one URL, parsed once (at most a few are kept). */
const targets = new Map<string, Target>();

function targetOf(url: string): Target {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    if (targets.size >= 16) targets.clear();
    const { protocol, hostname, port, path, auth } = urlToHttpOptions(parsed);
    const place: RequestOptions = { protocol, hostname, path };
    if (port !== undefined && port !== "") place.port = port;
    // `host` omits the scheme's default port and brackets an IPv6 address, as Node's own Host header.
    const fixed = ["Host", parsed.host];
    if (typeof auth === "string") fixed.push("Authorization", `Basic ${Buffer.from(auth).toString("base64")}`);
    target = { send: parsed.protocol === "https:" ? httpsRequest : httpRequest, place, fixed };
    targets.set(url, target);
  }
  return target;
}

/**
 * Resolves once the answer's status and headers are in; rejects when the backend cannot be reached or
 * `cancel` fires first. `headers` is name/value pairs (`["content-type", "application/json", ...]`);
 * Host and Content-Length are added. A cancel while the body is read cuts the connection (the backend
 * stops its work); once the body has ended it does nothing, and the connection is kept for the next
 * request.
 */
export function post(url: string, headers: readonly string[], body: string | Uint8Array, cancel: Cancel): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    if (cancel.aborted) return reject(abortError());
    const { send, place, fixed } = targetOf(url);
    let response: IncomingMessage | undefined;
    const release = cancel.listen(() => {
      const err = abortError();
      req.destroy(err);
      response?.destroy(err);
    });
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    const lines = [...headers, "content-length", String(bytes.length), ...fixed];
    const options: RequestOptions = { protocol: place.protocol, hostname: place.hostname, port: place.port, path: place.path, method: "POST", headers: lines };
    const req = send(options, (res) => {
      response = res;
      res.once("end", release);
      res.once("close", release);
      resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", body: res });
    });
    req.on("error", (err) => {
      release();
      reject(err);
    });
    req.end(bytes);
  });
}
