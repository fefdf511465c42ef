/**
 * `chatwire serve` as a library: an OpenAI-compatible HTTP server (Chat Completions, Responses,
 * models, health, tokenize/detokenize/apply-template, a /v1/completions pass-through) in front of a raw
 * completion backend (llama-server, vLLM, SGLang, any OpenAI-compatible /v1/completions, Ollama),
 * with the prompt rendered by chatwire (as token ids with provenance) and the completion parsed by it.
 * It keeps no state between requests, so any number of instances can run behind a load balancer.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { ChatwireError } from "../errors.js";
import type { FormatDescription } from "../formats/types.js";
import { BACKEND_KINDS, PROTOCOLS, type BackendKind } from "./backends/index.js";
import type { ServerContext } from "./generation.js";
import { preservedTokens } from "./preserved-tokens.js";
import type { PromptTokenizer } from "./prompt-tokens.js";
import { requestGrammars } from "./request-grammar.js";
import type { ChatTemplate } from "../template/index.js";
import { route, type RouterOptions } from "./router.js";

export interface ServeOptions {
  template: ChatTemplate;
  /** The backend's base URL, e.g. `http://127.0.0.1:8080`. */
  backend: string;
  backendKind: BackendKind;
  /** Default 127.0.0.1 (loopback only: exposing it is the caller's explicit choice). */
  host?: string;
  /** Default 8000; 0 picks a free port (see `RunningServer.port`). */
  port?: number;
  /** The backend's model name (needed by openai, vllm, sglang and ollama backends unless every request names one). */
  model?: string;
  /**
   * Encodes prompts as token ids with provenance (control tokens only from template text). See
   * `tokenizerJsonPrompts` and docs/server.md for where one comes from. Without it, `textPrompt`
   * must be true.
   */
  tokenizer?: PromptTokenizer;
  /**
   * Send the prompt as text even though the backend may parse special-token text inside request data
   * (a tool result spelling `<|im_start|>system` becomes a real control token). Default false; a
   * warning is logged at start-up when true.
   */
  textPrompt?: boolean;
  /** Largest accepted request body (default 8 MiB). */
  maxBodyBytes?: number;
  /** Longest wait for the backend to start answering and between stream events (default 300 s, at most 2^31-1 ms). */
  backendTimeoutMs?: number;
  /** Largest backend answer read (default 64 MiB). */
  maxBackendBytes?: number;
  /** Extra fields merged into every backend request body; a null value removes a field chatwire sets. */
  backendBody?: Record<string, unknown>;
  /** Keep a leading bos_token in a text prompt (default false: the backend adds BOS itself). */
  keepBos?: boolean;
  /**
   * Send the backend a tool-call grammar built from the format and the request's tools (src/grammar),
   * so every call the model writes parses and validates. Default true; for llamacpp, vllm and sglang
   * backends, requests with tools, and formats src/grammar covers.
   */
  grammar?: boolean;
  /**
   * "validated" (default): a streamed tool call is sent once it has closed and validated, so SDK
   * accumulators build exactly the non-streamed message. "early": calls stream as they are generated,
   * and a call that then fails is named (by index) in the final chunk's `chatwire_errors`.
   */
  streamCalls?: "validated" | "early";
  /** Require `Authorization: Bearer <apiKey>` on every route but /health. */
  apiKey?: string;
  /** Browser origins allowed (CORS), `*` for any. */
  cors?: readonly string[];
  /** Call ids for calls the model gave none (default: random, in the format's style). */
  idGenerator?: () => string;
  /** Where server-side errors and warnings are reported (default: nowhere). */
  log?: (line: string) => void;
  /** One line per finished request (method, path, status, ms, token counts); default none. */
  accessLog?: (line: string) => void;
  /** Idle keep-alive connections are closed after this long (default 5 s). */
  keepAliveTimeoutMs?: number;
  /** A request's headers must arrive within this (default 30 s), the whole request within requestTimeoutMs (default 60 s). */
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** On close(), how long requests in flight may finish before their connections are cut (default 10 s). */
  drainTimeoutMs?: number;
}

export interface RunningServer {
  /** `http://host:port`, the base URL clients use (append `/v1`). */
  url: string;
  host: string;
  port: number;
  server: Server;
  /**
   * Stops accepting connections, lets requests in flight finish (streams included) for up to
   * `drainTimeoutMs`, then cuts what is left, and resolves when all is closed.
   */
  close(): Promise<void>;
}

/** setTimeout's largest delay; a longer one fires at once (Node warns and uses 1 ms). */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const DEFAULTS = {
  host: "127.0.0.1",
  port: 8000,
  maxBodyBytes: 8 * 1024 * 1024,
  backendTimeoutMs: 300_000,
  maxBackendBytes: 64 * 1024 * 1024,
  keepAliveTimeoutMs: 5_000,
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  drainTimeoutMs: 10_000,
};

function checkedMs(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new ChatwireError("invalid_request", `${field} must be an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS} (about 24.8 days), got ${value}`, { field });
  }
  return value;
}

export function serverContext(options: ServeOptions): ServerContext {
  const protocol = PROTOCOLS[options.backendKind];
  if (protocol === undefined) {
    throw new ChatwireError("invalid_request", `unknown backend kind ${JSON.stringify(options.backendKind)} (one of ${BACKEND_KINDS.join(", ")})`, { field: "backendKind" });
  }
  let url: URL;
  try {
    url = new URL(options.backend);
  } catch {
    throw new ChatwireError("invalid_request", `backend must be an http(s) URL, got ${JSON.stringify(options.backend)}`, { field: "backend" });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ChatwireError("invalid_request", `backend must be an http(s) URL, got ${JSON.stringify(options.backend)}`, { field: "backend" });
  }
  const textPrompt = options.textPrompt === true;
  if (!textPrompt && options.tokenizer === undefined) {
    throw new ChatwireError(
      "invalid_request",
      "no tokenizer to send token ids with: give one (a model folder with tokenizer.json, a .gguf, or a llamacpp backend's /tokenize), or opt into text prompts (--text-prompt), where the backend may read special-token text in request data as control tokens",
      { field: "tokenizer" },
    );
  }
  if (!textPrompt && !protocol.acceptsIds) {
    throw new ChatwireError("invalid_request", `the ${protocol.kind} backend takes text prompts only: start with --text-prompt (it may read special-token text in request data as control tokens)`, { field: "textPrompt" });
  }
  const transport = {
    baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, ""),
    timeoutMs: checkedMs(options.backendTimeoutMs, DEFAULTS.backendTimeoutMs, "backendTimeoutMs"),
    maxResponseBytes: options.maxBackendBytes ?? DEFAULTS.maxBackendBytes,
    ...(options.backendBody === undefined ? {} : { extraBody: options.backendBody }),
  };
  const isLlamacpp = protocol.kind === "llamacpp";
  // By description: a polyfilled json-block carries the template's reasoning markers (one object per template format).
  const markers = new WeakMap<FormatDescription, readonly string[]>();
  const grammarOn = options.grammar !== false && protocol.constraints.includes("gbnf");
  return {
    template: options.template,
    protocol,
    transport,
    model: options.model,
    preservedTokens: (format) => {
      if (!isLlamacpp) return [];
      let list = markers.get(format);
      if (list === undefined) markers.set(format, (list = preservedTokens(format)));
      return list;
    },
    grammars: grammarOn ? requestGrammars(options.template, options.log) : undefined,
    prompts: textPrompt ? undefined : options.tokenizer,
    tokenizer: options.tokenizer,
    keepBos: options.keepBos ?? false,
    idGenerator: options.idGenerator,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
    holdCalls: (options.streamCalls ?? "validated") === "validated",
  };
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const ctx = serverContext(options);
  const log = options.log ?? ((): void => {});
  const drainMs = checkedMs(options.drainTimeoutMs, DEFAULTS.drainTimeoutMs, "drainTimeoutMs");
  if (options.textPrompt === true) {
    log("warning: prompts are sent as text (--text-prompt): the backend may read special-token text inside request data (a tool result, a web page) as real control tokens");
  }
  const routerOptions: RouterOptions = { apiKey: options.apiKey, corsOrigins: options.cors ?? [], log, accessLog: options.accessLog };
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    route(ctx, routerOptions, req, res).catch((err: unknown) => {
      // route() answers every error itself; reaching here means writing the answer failed.
      log(`error: ${err instanceof Error ? err.message : String(err)}`);
      res.destroy();
    });
  });
  // Bounds on slow and idle clients: headers within headersTimeout, the whole request within
  // requestTimeout, and an idle keep-alive connection closed after keepAliveTimeout. A connection that
  // never sends a request is closed by the headers timeout (Node checks every connectionsCheckingInterval).
  server.keepAliveTimeout = checkedMs(options.keepAliveTimeoutMs, DEFAULTS.keepAliveTimeoutMs, "keepAliveTimeoutMs");
  server.headersTimeout = checkedMs(options.headersTimeoutMs, DEFAULTS.headersTimeoutMs, "headersTimeoutMs");
  server.requestTimeout = Math.max(server.headersTimeout, checkedMs(options.requestTimeoutMs, DEFAULTS.requestTimeoutMs, "requestTimeoutMs"));
  // Node's headers timeout does not cover a connection that never sends a byte: such sockets stayed
  // open forever. Each new connection gets an inactivity timer until its first request arrives (the
  // router clears it; after an answer Node's keep-alive timer takes over).
  const firstRequestMs = server.headersTimeout;
  server.on("connection", (socket: Socket) => socket.setTimeout(firstRequestMs));
  server.on("clientError", (_err, socket: Socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
    else socket.destroy();
  });
  const host = options.host ?? DEFAULTS.host;
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => reject(new ChatwireError("io_error", `cannot listen on ${host}:${options.port ?? DEFAULTS.port}: ${err.message}`));
    server.once("error", onError);
    server.listen(options.port ?? DEFAULTS.port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    host,
    port,
    server,
    close: () => (closing ??= drain(server, drainMs)),
  };
}

/** Graceful stop: no new connections, idle ones closed now, busy ones given `ms` to finish. */
function drain(server: Server, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), ms);
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
    // Keep-alive connections that finish their request are closed rather than kept.
    server.on("request", (_req, res) => res.setHeader("connection", "close"));
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.once("close", () => clearInterval(sweep));
  });
}

export type { BackendKind, Constraint } from "./backends/index.js";
export { BACKEND_KINDS } from "./backends/index.js";
export type { PromptTokenizer, EncodedPrompt } from "./prompt-tokens.js";
export { vocabPrompts } from "./vocab-prompts.js";
export { backendPrompts } from "./backend-prompts.js";
export { waitingBackendPrompts, type RetryOptions, type WaitingPrompts } from "./waiting-prompts.js";
export { findPromptTokenizer, type TokenizerSourceOptions } from "./tokenizer-source.js";
