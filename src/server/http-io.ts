/**
 * The server's side of the HTTP exchange with its client: reading a bounded JSON body, answering with
 * JSON, and writing Server-Sent Events. Node's own http module only (no framework dependency).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { JsonSyntaxError } from "../request/read-json.js";
import { readSharedJson } from "../request/read-shared-json.js";
import { ApiError, type ApiErrorBody, type BodyPlace } from "./api-error.js";
import type { Exchange } from "./exchange.js";
import { toJson } from "./json-text.js";
import { readAll, utf8Text, type ReadAll } from "./read-all.js";

/**
 * Reads the request body as JSON, refusing more than `limit` bytes (413) before buffering it.
 * readSharedJson, not JSON.parse: a schema's `1.0` must stay a float so the template prints `1.0` as
 * transformers does. The text stays on the exchange (`bodyText`), so that an error about a field can
 * say where the field is.
 */
export async function readJsonBody(ex: Exchange, limit: number): Promise<unknown> {
  const text = (await readBody(ex.req, limit)).replace(/^\uFEFF/, "");
  if (text.trim() === "") throw new ApiError(400, "invalid_request_error", "the request body is empty; expected a JSON object", { code: "invalid_json" });
  ex.bodyText = text;
  try {
    return readSharedJson(text);
  } catch (err) {
    throw notJson(err);
  }
}

/** The 400 for a body that is not JSON: the reader's message (it says line and column), and `line`/`column`. */
export function notJson(err: unknown): ApiError {
  const where: { code: string; place?: BodyPlace } = { code: "invalid_json" };
  if (err instanceof JsonSyntaxError) where.place = { line: err.line, column: err.column };
  return new ApiError(400, "invalid_request_error", `the request body is not valid JSON: ${(err as Error).message}`, where);
}

/** The request body as text, refusing more than `limit` bytes (413) before buffering it. */
export async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  let read: ReadAll;
  try {
    read = await readAll(req, limit, undefined, "pause");
  } catch (err) {
    // The client broke off while sending; it is most likely gone, but the answer says why.
    throw new ApiError(400, "invalid_request_error", `the request body could not be read: ${(err as Error).message}`, { code: "invalid_request" });
  }
  if (read.over) throw tooLarge(limit);
  return utf8Text(read.bytes); // decoded whole: a character may span chunks
}

function tooLarge(limit: number): ApiError {
  return new ApiError(413, "invalid_request_error", `the request body is larger than ${limit} bytes`, { code: "body_too_large" });
}

export { toJson };

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = toJson(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

export function sendError(res: ServerResponse, err: ApiError): void {
  if (res.headersSent) {
    // A stream is already under way: the error becomes its last event (what OpenAI-compatible servers do).
    if (!res.writableEnded) {
      writeEvent(res, err.toJSON());
      res.end();
    }
    return;
  }
  const body: ApiErrorBody = err.toJSON();
  sendJson(res, err.status, body);
}

/** Starts an SSE response. Called only once the backend has answered, so a dead backend is still a 502. */
export function startEvents(res: ServerResponse): void {
  batchWrites(res);
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
}

/**
 * Holds what a stream writes until this turn of the event loop is over, then sends it in one write:
 * the events one backend chunk produces (often all of a short answer) leave together, instead of one
 * system call each, which was a large part of a streamed request's cost. Nothing waits longer than
 * the turn that produced it; end() sends what is held at once.
 */
const batching = new WeakSet<ServerResponse>();
function batchWrites(res: ServerResponse): void {
  if (batching.has(res) || res.writableEnded || res.destroyed) return;
  batching.add(res);
  res.cork();
  setImmediate(() => {
    batching.delete(res);
    if (!res.writableEnded && !res.destroyed) res.uncork();
  });
}

/** One `data:` event; with `event` set, a named event (the Responses API streams those). */
export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  if (res.writableEnded || res.destroyed) return;
  writeEventJson(res, toJson(data), event);
}

/** writeEvent for data already printed as JSON text. */
export function writeEventJson(res: ServerResponse, json: string, event?: string): void {
  if (res.writableEnded || res.destroyed) return;
  batchWrites(res);
  res.write(event === undefined ? `data: ${json}\n\n` : `event: ${event}\ndata: ${json}\n\n`);
}

/** Chat Completions' end-of-stream marker. */
export function writeDone(res: ServerResponse): void {
  if (res.writableEnded || res.destroyed) return;
  batchWrites(res);
  res.write("data: [DONE]\n\n");
}

/** Writes a chunk, waiting while the client's socket is full (or until the client is gone). */
export async function writeChunk(res: ServerResponse, chunk: Uint8Array | string): Promise<void> {
  if (res.destroyed || res.writableEnded) return;
  if (res.write(chunk)) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}
