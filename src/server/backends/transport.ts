/**
 * The HTTP side of talking to a backend, the same for every protocol: POST the protocol's body
 * (Node's http client for completions, fetch for the rarer raw requests), turn every failure into a BackendError with the backend's own message, bound the wait
 * (`timeoutMs` until the answer starts and between stream events) and the answer's size, and stop the
 * backend's work when the caller aborts (the client went away).
 */
import type { Readable } from "node:stream";
import { toJson, toJsonBytes } from "../json-text.js";
import { readAll, utf8Text } from "../read-all.js";
import { ChunkReader } from "../read-chunks.js";
import { post, type PostAnswer } from "./http-post.js";
import { errorText } from "./read-fields.js";
import { ndjsonReader, sseReader } from "./frames.js";
import { BackendError, type BackendCall, type BackendPiece, type BackendProtocol } from "./types.js";
import { signalSource, Watchdog, type CancelSource } from "./watchdog.js";

export interface TransportOptions {
  /** The backend's base URL (`http://127.0.0.1:8080`); the protocol's path is appended. */
  baseUrl: string;
  /** Longest wait for the backend to start answering, and between two stream events. */
  timeoutMs: number;
  /** Most bytes read from one backend answer. */
  maxResponseBytes: number;
  /** Extra fields merged into every backend request body (backend-specific options); null deletes one. */
  extraBody?: Record<string, unknown>;
}

/** The completion request's headers (name/value pairs, as http-post.ts takes them), by whether it streams. */
const STREAM_HEADERS: readonly string[] = ["content-type", "application/json", "accept", "text/event-stream, application/x-ndjson"];
const WHOLE_HEADERS: readonly string[] = ["content-type", "application/json", "accept", "application/json"];

/** How much of a failed answer's body is read for its error message. */
const ERROR_BODY_BYTES = 16_384;

/**
 * Sends one completion request. Resolves once the backend has accepted it (2xx) with its pieces of
 * text as they come; rejects with a BackendError when it cannot be reached, answers with an error
 * status, or does not answer in time. The pieces iterator throws BackendError the same way. `cancel`
 * stops it (the client went away).
 */
export async function openBackend(
  protocol: BackendProtocol,
  call: BackendCall,
  options: TransportOptions,
  cancel: CancelSource,
): Promise<AsyncIterable<BackendPiece[]>> {
  const { path, body } = protocol.request(call);
  const url = `${options.baseUrl.replace(/\/+$/, "")}${path}`;
  const watch = new Watchdog(options.timeoutMs, cancel);
  let response: PostAnswer;
  try {
    response = await post(url, call.stream ? STREAM_HEADERS : WHOLE_HEADERS, toJsonBytes(mergeExtra(body, options.extraBody)), watch);
  } catch (err) {
    watch.stop();
    throw watch.explain(err, `cannot reach the backend at ${url}`);
  }
  if (response.status < 200 || response.status > 299) {
    const text = await readText(response.body, ERROR_BODY_BYTES, watch).catch(() => "");
    watch.stop();
    throw new BackendError(`the backend answered ${response.status} ${response.statusText}: ${messageOf(text)}`.trim());
  }
  return pieces(protocol, response, call.stream, options.maxResponseBytes, watch);
}

/**
 * The answer's pieces, in batches: a whole answer is one batch, a stream gives a batch for each network
 * chunk (the events that arrived together). One async step per chunk, not one per event and framing
 * level.
 */
async function* pieces(
  protocol: BackendProtocol,
  response: PostAnswer,
  stream: boolean,
  limit: number,
  watch: Watchdog,
): AsyncGenerator<BackendPiece[]> {
  // Once the whole body is read there is nothing to stop: aborting then cost a DOMException (with its
  // stack) and an abort event per request.
  let drained = false;
  let reader: ChunkReader | undefined;
  try {
    if (!stream) {
      const text = await readText(response.body, limit, watch, true);
      drained = true;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new BackendError(`the backend's answer is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
      }
      const piece = protocol.read(json);
      if (piece.stop === undefined) throw new BackendError(`the backend's answer does not say it is complete (no stop reason): ${JSON.stringify(text.slice(0, 200))}`);
      yield [piece];
      return;
    }
    const frames = protocol.framing === "sse" ? sseReader() : ndjsonReader();
    const batch = new PieceBatch(protocol);
    let size = 0;
    reader = new ChunkReader(response.body);
    for (let chunk = await reader.next(); chunk !== undefined; chunk = await reader.next()) {
      watch.reset();
      size += chunk.length;
      if (size > limit) throw new BackendError(`the backend's answer is larger than ${limit} bytes`);
      const read = batch.read(frames.push(chunk));
      if (read.length > 0) yield read;
      batch.check();
      frames.check();
      if (frames.done) break;
    }
    if (!frames.done) {
      const read = batch.read(frames.end());
      if (read.length > 0) yield read;
      batch.check();
      frames.check();
    }
    drained = true;
    // A stream that ends without its last event (the backend closed mid-answer, or it is not the
    // protocol this kind speaks) is a failure, not a short answer.
    if (!batch.finished) throw new BackendError("the backend's stream ended before the answer was complete (no final event with a stop reason)");
  } catch (err) {
    throw watch.explain(err, "the backend's answer broke off");
  } finally {
    reader?.stop();
    watch.stop();
    // Stops the backend's work when the consumer leaves early (client disconnect, an error of ours).
    if (!drained && !watch.aborted) watch.abort();
  }
}

/**
 * Payloads read as pieces. One the protocol rejects fails the stream after the pieces before it have
 * been handed on, as when each event was read on its own: read() returns those, check() then throws.
 */
class PieceBatch {
  finished = false;
  private failure: { error: unknown } | undefined;

  constructor(private readonly protocol: BackendProtocol) {}

  read(payloads: unknown[]): BackendPiece[] {
    const out: BackendPiece[] = [];
    for (const json of payloads) {
      try {
        const piece = this.protocol.read(json);
        if (piece.stop !== undefined) this.finished = true;
        out.push(piece);
      } catch (error) {
        this.failure = { error };
        break;
      }
    }
    return out;
  }

  check(): void {
    if (this.failure !== undefined) throw this.failure.error;
  }
}

/**
 * A raw request to the backend (the /v1/completions pass-through and the backend tokenizer): the same
 * reach, timeout and error handling as a completion, the answer left to the caller. `chunks` yields
 * the body's bytes (bounded by `limit`), resetting the idle timer; `done` releases the timer.
 */
export async function backendRequest(
  path: string,
  init: { method: "GET" | "POST"; body?: string },
  options: TransportOptions,
  signal: AbortSignal,
): Promise<{ response: Response; chunks: (limit: number) => AsyncGenerator<Uint8Array>; done: () => void }> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}${path}`;
  const watch = new Watchdog(options.timeoutMs, signalSource(signal));
  let response: Response;
  try {
    const headers: Record<string, string> = init.body === undefined ? {} : { "content-type": "application/json" };
    response = await fetch(url, { method: init.method, headers, ...(init.body === undefined ? {} : { body: init.body }), signal: watch.signal });
  } catch (err) {
    watch.stop();
    throw watch.explain(err, `cannot reach the backend at ${url}`);
  }
  const done = (): void => {
    watch.stop();
    if (!watch.aborted) watch.abort();
  };
  async function* chunks(limit: number): AsyncGenerator<Uint8Array> {
    try {
      yield* bytes(response.body, limit, watch, true);
    } catch (err) {
      throw watch.explain(err, "the backend's answer broke off");
    } finally {
      done();
    }
  }
  return { response, chunks, done };
}

/** A raw request's whole answer as JSON, 502 for an error status or a body that is not JSON. */
export async function backendJson(path: string, body: unknown, options: TransportOptions, signal: AbortSignal): Promise<unknown> {
  const { response, chunks } = await backendRequest(path, { method: "POST", body: toJson(body) }, options, signal);
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks(options.maxResponseBytes)) parts.push(chunk);
  const text = new TextDecoder().decode(Buffer.concat(parts));
  if (!response.ok) throw new BackendError(`the backend answered ${response.status} ${response.statusText} to ${path}: ${messageOf(text)}`.trim());
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BackendError(`the backend's answer to ${path} is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
}

/** The body's chunks, each one resetting the idle timer; past `limit` bytes a BackendError (or, for error bodies, the end). */
async function* bytes(body: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array> | null, limit: number, watch: Watchdog, strict: boolean): AsyncGenerator<Uint8Array> {
  if (body === null) return;
  let size = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    watch.reset();
    size += chunk.length;
    if (size > limit) {
      if (strict) throw new BackendError(`the backend's answer is larger than ${limit} bytes`);
      yield chunk.subarray(0, chunk.length - (size - limit));
      return;
    }
    yield chunk;
  }
}

/** A post answer's whole body as text; past `limit` bytes a BackendError when `strict`, else its first `limit` bytes. */
async function readText(body: Readable, limit: number, watch: Watchdog, strict = false): Promise<string> {
  const read = await readAll(body, limit, () => watch.reset());
  if (read.over && strict) throw new BackendError(`the backend's answer is larger than ${limit} bytes`);
  return utf8Text(read.bytes);
}

/** The message in an error body (`{"error": ...}` as JSON, or the text itself). */
function messageOf(text: string): string {
  try {
    const json = JSON.parse(text) as unknown;
    if (typeof json === "object" && json !== null && "error" in json) return errorText((json as { error: unknown }).error);
    return errorText(json);
  } catch {
    return text.trim().slice(0, 1000);
  }
}

function mergeExtra(body: Record<string, unknown>, extra: Record<string, unknown> | undefined): Record<string, unknown> {
  if (extra === undefined) return body;
  const out = { ...body };
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) delete out[key];
    else out[key] = value;
  }
  return out;
}
