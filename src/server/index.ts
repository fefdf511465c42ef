/**
 * `chatwire serve` as a library: an OpenAI-compatible HTTP server (Chat Completions, Responses,
 * models, health) in front of a raw completion backend (llama-server, an OpenAI-compatible
 * /v1/completions, Ollama), with the prompt rendered by chatwire and the completion parsed by it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ChatwireError } from "../errors.js";
import { getFormat } from "../formats/index.js";
import type { FormatId } from "../formats/types.js";
import { buildGbnf, grammarFormats, grammarUnavailable } from "../grammar/index.js";
import type { ChatTemplate } from "../template/index.js";
import { BACKEND_KINDS, PROTOCOLS, type BackendKind } from "./backends/index.js";
import type { GrammarRequest, ServerContext } from "./generation.js";
import { formatMarkers } from "./preserved-tokens.js";
import { route } from "./router.js";

export interface ServeOptions {
  template: ChatTemplate;
  /** The backend's base URL, e.g. `http://127.0.0.1:8080`. */
  backend: string;
  backendKind: BackendKind;
  /** Default 127.0.0.1 (loopback only: exposing it is the caller's explicit choice). */
  host?: string;
  /** Default 8000; 0 picks a free port (see `RunningServer.port`). */
  port?: number;
  /** The backend's model name (needed by openai and ollama backends unless every request names one). */
  model?: string;
  /** Largest accepted request body (default 8 MiB). */
  maxBodyBytes?: number;
  /** Longest wait for the backend to start answering and between stream events (default 300 s). */
  backendTimeoutMs?: number;
  /** Largest backend answer read (default 64 MiB). */
  maxBackendBytes?: number;
  /** Extra fields merged into every backend request body; a null value removes a field chatwire sets. */
  backendBody?: Record<string, unknown>;
  /** Keep a leading bos_token in the prompt (default false: the backend adds BOS itself). */
  keepBos?: boolean;
  /**
   * Send llama-server a GBNF grammar built from the format and the request's tools (src/grammar), so
   * every call the model writes parses and validates. Default true; only for llamacpp backends, only
   * for requests with tools, and only for formats src/grammar covers.
   */
  grammar?: boolean;
  /** Call ids for calls the model gave none (default: random, in the format's style). */
  idGenerator?: () => string;
  /** Where server-side errors are reported (default: nowhere). */
  log?: (line: string) => void;
}

export interface RunningServer {
  /** `http://host:port`, the base URL clients use (append `/v1`). */
  url: string;
  host: string;
  port: number;
  server: Server;
  /** Stops accepting connections, ends open ones (streams included) and resolves when closed. */
  close(): Promise<void>;
}

const DEFAULTS = { host: "127.0.0.1", port: 8000, maxBodyBytes: 8 * 1024 * 1024, backendTimeoutMs: 300_000, maxBackendBytes: 64 * 1024 * 1024 };

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
  const transport = {
    baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, ""),
    timeoutMs: options.backendTimeoutMs ?? DEFAULTS.backendTimeoutMs,
    maxResponseBytes: options.maxBackendBytes ?? DEFAULTS.maxBackendBytes,
    ...(options.backendBody === undefined ? {} : { extraBody: options.backendBody }),
  };
  const isLlamacpp = protocol.kind === "llamacpp";
  const markers = new Map<FormatId, readonly string[]>();
  return {
    template: options.template,
    protocol,
    transport,
    model: options.model,
    preservedTokens: (format) => {
      if (!isLlamacpp) return [];
      let list = markers.get(format);
      if (list === undefined) markers.set(format, (list = formatMarkers(getFormat(format))));
      return list;
    },
    // Only llama-server takes a GBNF grammar with a raw completion.
    grammar: isLlamacpp && options.grammar !== false ? requestGrammar(options.template, options.log) : () => undefined,
    keepBos: options.keepBos ?? false,
    idGenerator: options.idGenerator,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULTS.maxBodyBytes,
  };
}

/**
 * The grammar for a request with tools, in a format src/grammar covers. A grammar that cannot be built
 * is not a reason to refuse the request: it is generated without one (and the parser still checks).
 */
function requestGrammar(template: ChatTemplate, log: ((line: string) => void) | undefined): (request: GrammarRequest) => string | undefined {
  const covered = new Set<FormatId>(grammarFormats());
  const told = new Set<FormatId>();
  return ({ body, format, promptSuffix }) => {
    const tools = body.tools;
    if (!Array.isArray(tools) || tools.length === 0) return undefined;
    if (!covered.has(format)) {
      // Said once per format, with the reason, instead of silently generating unconstrained.
      if (!told.has(format)) log?.(`warning: no grammar for format ${format} (${grammarUnavailable(format) ?? "unknown"}); generating without one`);
      told.add(format);
      return undefined;
    }
    try {
      return buildGbnf(format, body, { promptSuffix, templateSource: template.source });
    } catch (err) {
      log?.(`warning: no grammar for this request (${err instanceof Error ? err.message : String(err)})`);
      return undefined;
    }
  };
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const ctx = serverContext(options);
  const log = options.log ?? ((): void => {});
  const server = createServer((req, res) => {
    route(ctx, req, res, log).catch((err: unknown) => {
      // route() answers every error itself; reaching here means writing the answer failed.
      log(`error: ${err instanceof Error ? err.message : String(err)}`);
      res.destroy();
    });
  });
  // Bounds on slow clients: the whole request (headers and body) must arrive within a minute.
  server.requestTimeout = 60_000;
  server.headersTimeout = 30_000;
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n");
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
  return {
    url: `http://${shownHost}:${port}`,
    host,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type { BackendKind } from "./backends/index.js";
export { BACKEND_KINDS } from "./backends/index.js";
