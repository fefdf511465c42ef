/**
 * Which handler answers a request. Every failure, thrown anywhere below, becomes an OpenAI-shaped
 * error here; nothing a client sends can take the process down.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { ApiError, toApiError } from "./api-error.js";
import { chatCompletions } from "./chat-completions.js";
import { DEFAULT_MODEL_NAME, type ServerContext } from "./generation.js";
import { sendError, sendJson } from "./http-io.js";
import { responses } from "./responses.js";

type Handler = (ctx: ServerContext, req: IncomingMessage, res: ServerResponse, signal: AbortSignal) => Promise<void>;

const ROUTES: Record<string, Partial<Record<"GET" | "POST", Handler>>> = {
  "/health": { GET: health },
  "/v1/models": { GET: models },
  "/v1/chat/completions": { POST: chatCompletions },
  "/v1/responses": { POST: responses },
};

export async function route(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, log: (line: string) => void): Promise<void> {
  // Aborted when the client goes away before the answer is complete: the backend request stops too.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  try {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const methods = ROUTES[path.length > 1 ? path.replace(/\/+$/, "") : path];
    if (methods === undefined) throw new ApiError(404, "not_found_error", `no route for ${req.method ?? "?"} ${path}`, { code: "not_found" });
    const handler = methods[req.method as "GET" | "POST"];
    if (handler === undefined) {
      res.setHeader("allow", Object.keys(methods).join(", "));
      throw new ApiError(405, "invalid_request_error", `${path} accepts ${Object.keys(methods).join(", ")}, not ${req.method ?? "?"}`, { code: "method_not_allowed" });
    }
    await handler(ctx, req, res, controller.signal);
  } catch (err) {
    const error = toApiError(err);
    if (error.type === "server_error") log(`error: ${error.message}`);
    // The request body may be unread (413, or a failure before reading it): close rather than drain it.
    if (!req.complete && !res.headersSent) res.setHeader("connection", "close");
    sendError(res, error);
  }
}

async function health(ctx: ServerContext, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  sendJson(res, 200, { status: "ok", template: ctx.template.origin, format: ctx.template.format, backend: ctx.protocol.kind });
}

async function models(ctx: ServerContext, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  const id = ctx.model ?? DEFAULT_MODEL_NAME;
  sendJson(res, 200, { object: "list", data: [{ id, object: "model", created: 0, owned_by: "chatwire" }] });
}
