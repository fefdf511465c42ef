/**
 * `POST /v1/completions`, passed through: the client's raw completion request goes to the backend's
 * own OpenAI-compatible route (llama-server, vLLM, SGLang and Ollama all have one) and its answer,
 * streamed or whole, comes back byte for byte with its status. Nothing is rendered or parsed: the
 * prompt is the client's. `--model` replaces the client's model name (the backend knows that one);
 * the body limit, timeouts and backend answer limit apply as everywhere.
 */
import { isObject } from "../request/is-object.js";
import { ApiError } from "./api-error.js";
import { backendRequest } from "./backends/transport.js";
import type { Exchange } from "./exchange.js";
import type { ServerContext } from "./generation.js";
import { notJson, readBody, writeChunk } from "./http-io.js";
import { jsonSyntaxError } from "../request/read-json.js";
import { toJson } from "./json-text.js";

export async function completionsPassThrough(ctx: ServerContext, ex: Exchange): Promise<void> {
  const text = await readBody(ex.req, ctx.maxBodyBytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    // Read again by our reader only to say where it is wrong (line:column), as the other routes do.
    throw notJson(jsonSyntaxError(text, err));
  }
  if (!isObject(body)) throw new ApiError(400, "invalid_request_error", "the request body must be a JSON object", { code: "invalid_request" });
  if (ctx.model !== undefined) body.model = ctx.model;
  const { response, chunks } = await backendRequest("/v1/completions", { method: "POST", body: toJson(body) }, ctx.transport, ex.signal);
  const type = response.headers.get("content-type") ?? "application/json";
  ex.res.writeHead(response.status, { "content-type": type, "cache-control": "no-cache" });
  try {
    for await (const chunk of chunks(ctx.transport.maxResponseBytes)) {
      if (ex.res.destroyed) return;
      await writeChunk(ex.res, chunk);
    }
  } catch {
    // Headers are out: a broken backend answer can only end the connection.
    ex.res.destroy();
    return;
  }
  ex.res.end();
}

