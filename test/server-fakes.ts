/**
 * Fake raw completion backends for the server tests: a loopback HTTP server speaking one backend
 * kind's protocol (llama-server /completion, OpenAI /v1/completions, Ollama /api/generate), answering
 * every request with a fixed completion, whole or streamed in small pieces, and recording what it was
 * sent. Behaviours for the error paths: an error status, a stream that breaks off, silence.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Kind = "llamacpp" | "openai" | "vllm" | "sglang" | "ollama";

export type Behaviour =
  | { kind: "ok" }
  /** Answers with this HTTP status and body. */
  | { kind: "status"; status: number; body: string }
  /** Streams the first pieces, then an error event (SSE) / error line (NDJSON). */
  | { kind: "error-mid-stream"; message: string }
  /** Accepts the request and never answers. */
  | { kind: "silent" }
  /** Streams one piece, then waits (for the client to go away). */
  | { kind: "stall-after-first" }
  /** Streams the first pieces, then closes the connection cleanly without the final event. */
  | { kind: "close-mid-answer" }
  /** Streams the first pieces, then drops the connection (no end of the chunked body). */
  | { kind: "reset-mid-answer" }
  /** Streams a piece every 20 ms for about a minute (a long generation, for a client that leaves mid-way). */
  | { kind: "slow" }
  /** Answers 200 with JSON of another shape (whole and per stream event). */
  | { kind: "wrong-shape" }
  /** Answers the whole completion as one stream event. */
  | { kind: "one-event" };

export interface FakeOptions {
  completion: string;
  /** Picks the completion per request (overrides `completion`). */
  completionFor?: (body: Record<string, unknown>) => string;
  /** Do not keep the requests in `received` (load tests). */
  forget?: boolean;
  /** Extra routes (`/tokenize`, `/health`, ...): path -> answer for the parsed body. */
  routes?: Record<string, (body: Record<string, unknown>) => unknown>;
  /** Streamed pieces are this many code points long. */
  pieceSize?: number;
  /** Why the fake says it stopped. */
  stop?: "stop" | "length";
  behaviour?: Behaviour;
  /** Listen on this port (default: a free one), e.g. one a server was told to reach before it was up. */
  port?: number;
}

export interface Received {
  path: string;
  body: Record<string, unknown>;
}

export interface FakeBackend {
  url: string;
  received: Received[];
  /** Resolves when a request's connection closed before its answer was complete. */
  abortedRequests: number;
  set(options: Partial<FakeOptions>): void;
  close(): Promise<void>;
}

const PATHS: Record<Kind, string> = { llamacpp: "/completion", openai: "/v1/completions", vllm: "/v1/completions", sglang: "/v1/completions", ollama: "/api/generate" };

export const PROMPT_TOKENS = 42;
export const COMPLETION_TOKENS = 17;

function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

/** The protocol's JSON for one piece of text, `last` carrying the stop reason and token counts. */
function frame(kind: Kind, text: string, last: boolean, stop: "stop" | "length"): Record<string, unknown> {
  if (kind === "llamacpp") {
    return last
      ? { content: text, stop: true, stop_type: stop === "length" ? "limit" : "eos", tokens_evaluated: PROMPT_TOKENS, tokens_predicted: COMPLETION_TOKENS }
      : { content: text, stop: false };
  }
  if (kind !== "ollama") return { id: "cmpl-1", object: "text_completion", choices: [{ index: 0, text, finish_reason: last ? stop : null }] };
  return last
    ? { model: "m", response: text, done: true, done_reason: stop, prompt_eval_count: PROMPT_TOKENS, eval_count: COMPLETION_TOKENS }
    : { model: "m", response: text, done: false };
}

function openaiUsage(): Record<string, unknown> {
  return { prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS };
}

export async function fakeBackend(kind: Kind, initial: FakeOptions): Promise<FakeBackend> {
  let options: FakeOptions = { ...initial };
  const received: Received[] = [];
  const state = { abortedRequests: 0 };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
    const raw = Buffer.concat(chunks).toString("utf8");
    const body = (raw === "" ? {} : JSON.parse(raw)) as Record<string, unknown>;
    if (options.forget !== true) received.push({ path: req.url ?? "", body });
    const completion = options.completionFor?.(body) ?? options.completion;
    res.on("close", () => {
      if (!res.writableFinished) state.abortedRequests++;
    });
    const extra = options.routes?.[req.url ?? ""];
    if (extra !== undefined) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(extra(body)));
      return;
    }
    if (req.url !== PATHS[kind]) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: `no route ${req.url}` }));
      return;
    }
    const behaviour = options.behaviour ?? { kind: "ok" };
    if (behaviour.kind === "status") {
      res.writeHead(behaviour.status, { "content-type": "application/json" }).end(behaviour.body);
      return;
    }
    if (behaviour.kind === "silent") return;
    const stop = options.stop ?? "stop";
    if (behaviour.kind === "wrong-shape") {
      const odd = { result: completion, finished: true };
      if (body.stream !== true) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(odd));
      else res.writeHead(200, { "content-type": "text/event-stream" }).end(kind === "ollama" ? `${JSON.stringify(odd)}\n` : `data: ${JSON.stringify(odd)}\n\n`);
      return;
    }
    if (body.stream !== true && behaviour.kind === "reset-mid-answer") {
      const text = JSON.stringify(frame(kind, completion, true, stop));
      res.writeHead(200, { "content-type": "application/json" });
      res.write(text.slice(0, text.length >> 1));
      setImmediate(() => res.socket?.destroy());
      return;
    }
    if (body.stream !== true && behaviour.kind === "close-mid-answer") {
      const text = JSON.stringify(frame(kind, completion, true, stop));
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
      res.write(text.slice(0, text.length >> 1));
      setImmediate(() => res.destroy());
      return;
    }
    if (body.stream !== true) {
      const whole = frame(kind, completion, true, stop);
      if (kind !== "llamacpp" && kind !== "ollama") whole.usage = openaiUsage();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(whole));
      return;
    }
    const sse = kind !== "ollama";
    const send = (json: unknown): void => {
      res.write(sse ? `data: ${JSON.stringify(json)}\n\n` : `${JSON.stringify(json)}\n`);
    };
    res.writeHead(200, { "content-type": sse ? "text/event-stream" : "application/x-ndjson" });
    const parts = behaviour.kind === "one-event" ? [completion] : pieces(completion, options.pieceSize ?? 5);
    if (behaviour.kind === "stall-after-first") {
      send(frame(kind, parts[0] ?? "", false, stop));
      return;
    }
    if (behaviour.kind === "slow") {
      for (let i = 0; i < 3000 && !res.destroyed; i++) {
        send(frame(kind, "x", false, stop));
        await new Promise((r) => setTimeout(r, 20));
      }
      if (!res.destroyed) res.end();
      return;
    }
    for (const [i, part] of parts.entries()) {
      if (behaviour.kind === "reset-mid-answer" && i === 2) {
        res.socket?.destroy();
        return;
      }
      if (behaviour.kind === "close-mid-answer" && i === 2) {
        res.end();
        return;
      }
      if (behaviour.kind === "error-mid-stream" && i === 2) {
        send(sse ? { error: { code: 500, message: behaviour.message, type: "server_error" } } : { error: behaviour.message });
        res.end();
        return;
      }
      send(frame(kind, part, false, stop));
      await new Promise((r) => setImmediate(r)); // separate network writes, as a real backend makes
    }
    send(frame(kind, "", true, stop));
    if (kind !== "llamacpp" && kind !== "ollama") {
      send({ id: "cmpl-1", object: "text_completion", choices: [], usage: openaiUsage() });
      res.write("data: [DONE]\n\n");
    }
    res.end();
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(initial.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    get abortedRequests() {
      return state.abortedRequests;
    },
    set(update) {
      options = { ...options, ...update };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback port with nothing listening (a server opened and closed again). */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Reads an SSE body into its events: `[DONE]` as the string, other data as parsed JSON. */
export function sseEvents(text: string): { event: string | undefined; data: unknown }[] {
  const out: { event: string | undefined; data: unknown }[] = [];
  for (const block of text.split("\n\n")) {
    if (block.trim() === "") continue;
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    const payload = data.join("\n");
    out.push({ event, data: payload === "[DONE]" ? payload : (JSON.parse(payload) as unknown) });
  }
  return out;
}
