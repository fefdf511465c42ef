/**
 * Which handler answers a request, behind the access guards (CORS, API key), with one access-log line
 * per request. Every failure, thrown anywhere below, becomes an OpenAI-shaped error here; nothing a
 * client sends can take the process down.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { applyCors, checkApiKey, type AccessOptions } from "./access.js";
import { ApiError, placedInBody, toApiError } from "./api-error.js";
import { chatCompletions } from "./chat-completions.js";
import { ClientGone } from "./client-gone.js";
import type { Exchange } from "./exchange.js";
import type { ServerContext } from "./generation.js";
import { sendError } from "./http-io.js";
import { health, models } from "./info-routes.js";
import { completionsPassThrough } from "./passthrough.js";
import { responses } from "./responses.js";
import { applyTemplate, detokenizeRoute, tokenizeRoute } from "./token-routes.js";

type Handler = (ctx: ServerContext, ex: Exchange) => Promise<void>;

const ROUTES: Record<string, Partial<Record<"GET" | "POST", Handler>>> = {
  "/health": { GET: health },
  "/v1/health": { GET: health },
  "/v1/models": { GET: models },
  "/v1/chat/completions": { POST: chatCompletions },
  "/v1/responses": { POST: responses },
  "/v1/completions": { POST: completionsPassThrough },
  "/tokenize": { POST: tokenizeRoute },
  "/detokenize": { POST: detokenizeRoute },
  "/apply-template": { POST: applyTemplate },
};

export interface RouterOptions extends AccessOptions {
  /** Server-side errors (500s, start-up warnings). */
  log: (line: string) => void;
  /** One line per finished request, or undefined for no access log. */
  accessLog: ((line: string) => void) | undefined;
}

export async function route(ctx: ServerContext, options: RouterOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Read only for the access log's duration.
  const started = options.accessLog === undefined ? 0n : process.hrtime.bigint();
  // Fired when the client goes away before the answer is complete: the backend request stops too.
  const gone = new ClientGone();
  const path = pathOf(req.url);
  const ex: Exchange = {
    req,
    res,
    gone,
    get signal() {
      return gone.signal;
    },
  };
  res.on("close", () => {
    if (!res.writableFinished) gone.fire();
    options.accessLog?.(accessLine(req, path, res, started, ex));
  });
  // The connection's idle timer (index.ts) is for the wait before a request; a request may legitimately
  // be quiet for minutes (a long generation), bounded by the backend timeout instead.
  req.socket.setTimeout(0);
  try {
    // `GET /path` with no version is HTTP/0.9, which has no status line or headers: refuse it.
    if (req.httpVersionMajor < 1) {
      res.setHeader("connection", "close");
      throw new ApiError(505, "invalid_request_error", `HTTP/${req.httpVersion} is not supported; use HTTP/1.0 or later`, { code: "http_version_not_supported" });
    }
    if (applyCors(options, req, res)) return;
    const methods = ROUTES[path];
    if (methods === undefined) throw new ApiError(404, "not_found_error", `no route for ${req.method ?? "?"} ${path}`, { code: "not_found" });
    checkApiKey(options, req, path);
    const handler = methods[req.method as "GET" | "POST"];
    if (handler === undefined) {
      res.setHeader("allow", Object.keys(methods).join(", "));
      throw new ApiError(405, "invalid_request_error", `${path} accepts ${Object.keys(methods).join(", ")}, not ${req.method ?? "?"}`, { code: "method_not_allowed" });
    }
    await handler(ctx, ex);
  } catch (err) {
    const error = placedInBody(toApiError(err), ex.bodyText);
    if (error.type === "server_error") options.log(`error: ${error.message}`);
    // The request body may be unread (413, 401, or a failure before reading it): close rather than drain it.
    if (!req.complete && !res.headersSent) res.setHeader("connection", "close");
    sendError(res, error);
  }
}

function pathOf(url: string | undefined): string {
  if (url === undefined) return "/";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") : path;
}

/** `POST /v1/chat/completions 200 12.3ms prompt_tokens=42 completion_tokens=17` (`-` when unknown). */
function accessLine(req: IncomingMessage, path: string, res: ServerResponse, started: bigint, ex: Exchange): string {
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const status = res.writableFinished ? String(res.statusCode) : `${res.statusCode}(client-gone)`;
  const usage = ex.usage;
  const tokens = usage === undefined ? "prompt_tokens=- completion_tokens=-" : `prompt_tokens=${usage.prompt_tokens} completion_tokens=${usage.completion_tokens}`;
  // The path only (no query): it is what the server routed on, and queries may carry secrets.
  return `${req.method ?? "?"} ${JSON.stringify(path).slice(1, -1)} ${status} ${ms.toFixed(1)}ms ${tokens}`;
}
