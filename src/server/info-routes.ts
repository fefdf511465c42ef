/**
 * `GET /health` and `GET /v1/models`. Health answers from the server alone (it is what a load balancer
 * polls; 503 while a backend tokenizer waits for its backend to answer, see waiting-prompts.ts), or, with `?backend=1`, also asks the backend: its own health route (llama-server, vLLM,
 * SGLang `/health`; Ollama `/api/version`; a plain OpenAI server `/v1/models`), 503 when it fails.
 */
import type { Exchange } from "./exchange.js";
import { DEFAULT_MODEL_NAME, type ServerContext } from "./generation.js";
import { sendJson } from "./http-io.js";

const PROBE_PATHS: Record<string, string> = { llamacpp: "/health", vllm: "/health", sglang: "/health", ollama: "/api/version", openai: "/v1/models" };

/** Longest wait for the backend's health answer. */
const PROBE_TIMEOUT_MS = 5000;

export async function health(ctx: ServerContext, ex: Exchange): Promise<void> {
  // pid: which process answered (with --workers, each worker is its own process).
  const base = { pid: process.pid, template: ctx.template.origin, format: ctx.template.format, backend: ctx.protocol.kind, prompt: ctx.prompts === undefined ? "text" : `ids (${ctx.prompts.source})` };
  const query = new URLSearchParams((ex.req.url ?? "").split("?")[1] ?? "");
  // A backend tokenizer whose backend has not answered yet: the server cannot encode a prompt.
  const waiting = ctx.prompts?.unavailable ?? ctx.tokenizer?.unavailable;
  if (waiting !== undefined) {
    sendJson(ex.res, 503, { status: "unavailable", reason: waiting, ...base });
    return;
  }
  const probe = query.get("backend");
  if (probe === null || probe === "0" || probe === "false") {
    sendJson(ex.res, 200, { status: "ok", ...base });
    return;
  }
  const url = `${ctx.transport.baseUrl}${PROBE_PATHS[ctx.protocol.kind] ?? "/health"}`;
  const started = Date.now();
  const signal = AbortSignal.any([ex.signal, AbortSignal.timeout(Math.min(PROBE_TIMEOUT_MS, ctx.transport.timeoutMs))]);
  try {
    const res = await fetch(url, { signal });
    await res.body?.cancel();
    const backend = { status: res.ok ? "ok" : "error", http_status: res.status, ms: Date.now() - started };
    sendJson(ex.res, res.ok ? 200 : 503, { status: res.ok ? "ok" : "error", ...base, backend_health: backend });
  } catch (err) {
    const message = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    sendJson(ex.res, 503, { status: "error", ...base, backend_health: { status: "unreachable", message, ms: Date.now() - started } });
  }
}

export async function models(ctx: ServerContext, ex: Exchange): Promise<void> {
  const id = ctx.model ?? DEFAULT_MODEL_NAME;
  sendJson(ex.res, 200, { object: "list", data: [{ id, object: "model", created: 0, owned_by: "chatwire" }] });
}
