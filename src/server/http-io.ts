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
      endEvents(res);
    }
    return;
  }
  const body: ApiErrorBody = err.toJSON();
  sendJson(res, err.status, body);
}

/**
 * Starts an SSE response. Called only once the backend has answered, so a dead backend is still a 502.
 * The headers leave with the first events (or alone, at the end of this turn, when there are none).
 */
export function startEvents(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  hold(res, "");
}

/**
 * What a stream writes is held as text until this turn of the event loop is over, then written as one
 * chunk: the events one backend chunk produces (often all of a short answer) leave in one system call
 * and one chunk of the chunked encoding, where a write per event cost the response's stream four
 * buffered writes each (size line, text, line end) and one writev of them all. Nothing waits longer
 * than the turn that produced it; endEvents() sends what is held with the end.
 */
const HELD = Symbol("held SSE text");
type Holding = ServerResponse & { [HELD]?: string | undefined };

function hold(res: Holding, text: string): void {
  const before = res[HELD];
  if (before !== undefined) {
    res[HELD] = before + text;
    return;
  }
  res[HELD] = text;
  setImmediate(release, res);
}

function release(res: Holding): void {
  const text = res[HELD];
  if (text === undefined) return; // ended in the same turn
  res[HELD] = undefined;
  if (res.writableEnded || res.destroyed) return;
  // Nothing but the headers (startEvents' turn wrote no event): they go alone, as the stream's start.
  if (text === "") res.flushHeaders();
  else res.write(text);
}

/** Ends a stream: what is held goes with the end (the last chunk and the chunked encoding's end in one write). */
export function endEvents(res: Holding): void {
  const text = res[HELD];
  res[HELD] = undefined;
  if (text === undefined || text === "" || res.writableEnded || res.destroyed) res.end();
  else res.end(text);
}

/** One `data:` event; with `event` set, a named event (the Responses API streams those). */
export function writeEvent(res: ServerResponse, data: unknown, event?: string): void {
  if (res.writableEnded || res.destroyed) return;
  writeEventJson(res, toJson(data), event);
}

/** writeEvent for data already printed as JSON text. */
export function writeEventJson(res: ServerResponse, json: string, event?: string): void {
  if (res.writableEnded || res.destroyed) return;
  hold(res, event === undefined ? `data: ${json}\n\n` : `event: ${event}\ndata: ${json}\n\n`);
}

/** Chat Completions' end-of-stream marker. */
export function writeDone(res: ServerResponse): void {
  if (res.writableEnded || res.destroyed) return;
  hold(res, "data: [DONE]\n\n");
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
