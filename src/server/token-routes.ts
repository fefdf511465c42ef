/**
 * The llama-server-style utility routes: `/tokenize`, `/detokenize` and `/apply-template`, answered by
 * chatwire with the same template and tokenizer the completions use.
 * - `POST /tokenize` `{content, parse_special?, with_pieces?}` (llama-server) or `{prompt}` (vLLM):
 *   `{tokens, count}`; `parse_special: false` encodes control-token text as ordinary text (default true,
 *   as llama-server). A chat body (`messages` or `input`) instead gives the prompt's ids with provenance,
 *   exactly what the backend is sent.
 * - `POST /detokenize` `{tokens}`: `{content}`.
 * - `POST /apply-template` (a chat or Responses body): `{prompt}`, the rendered text.
 */
import { isObject } from "../request/is-object.js";
import { ApiError, badRequest } from "./api-error.js";
import type { Exchange } from "./exchange.js";
import { checkBody, renderPrompt, type ServerContext } from "./generation.js";
import { readJsonBody, sendJson } from "./http-io.js";
import type { PromptTokenizer } from "./prompt-tokens.js";

function tokenizerOf(ctx: ServerContext): PromptTokenizer {
  if (ctx.tokenizer !== undefined) return ctx.tokenizer;
  throw new ApiError(501, "invalid_request_error", "this server has no tokenizer (it was started with --text-prompt and no tokenizer.json or .gguf)", { code: "not_supported" });
}

async function objectBody(ctx: ServerContext, ex: Exchange): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ex, ctx.maxBodyBytes);
  if (!isObject(body)) throw new ApiError(400, "invalid_request_error", "the request body must be a JSON object", { code: "invalid_request" });
  return body;
}

export async function tokenizeRoute(ctx: ServerContext, ex: Exchange): Promise<void> {
  const body = await objectBody(ctx, ex);
  const tokenizer = tokenizerOf(ctx);
  let tokens: number[];
  if (body.messages !== undefined || body.input !== undefined) {
    const chat = checkBody({ ...ctx, protocol: { ...ctx.protocol, needsModel: false } }, body, body.messages !== undefined ? "messages" : "input");
    tokens = (await tokenizer.encode(ctx.template, chat, ex.signal)).ids;
  } else {
    const field = body.content !== undefined ? "content" : "prompt";
    const text = body[field];
    if (typeof text !== "string") throw badRequest(field, "must be a string (or send a chat body with `messages`)");
    const special = body.parse_special ?? true;
    if (typeof special !== "boolean") throw badRequest("parse_special", "must be true or false");
    tokens = await tokenizer.tokenize(text, special, ex.signal);
  }
  if (body.with_pieces === true) {
    const pieces = await Promise.all(tokens.map(async (id) => ({ id, piece: await tokenizer.detokenize([id], ex.signal) })));
    sendJson(ex.res, 200, { tokens: pieces, count: tokens.length });
  } else {
    sendJson(ex.res, 200, { tokens, count: tokens.length });
  }
}

export async function detokenizeRoute(ctx: ServerContext, ex: Exchange): Promise<void> {
  const body = await objectBody(ctx, ex);
  const tokens = body.tokens;
  if (!Array.isArray(tokens) || !tokens.every((t): t is number => Number.isSafeInteger(t) && (t as number) >= 0)) {
    throw badRequest("tokens", "must be an array of token ids (integers >= 0)");
  }
  sendJson(ex.res, 200, { content: await tokenizerOf(ctx).detokenize(tokens, ex.signal) });
}

export async function applyTemplate(ctx: ServerContext, ex: Exchange): Promise<void> {
  const body = await objectBody(ctx, ex);
  const chat = checkBody({ ...ctx, protocol: { ...ctx.protocol, needsModel: false } }, body, body.input !== undefined && body.messages === undefined ? "input" : "messages");
  const { text } = await renderPrompt({ ...ctx, keepBos: true }, chat, ex.gone);
  sendJson(ex.res, 200, { prompt: text });
}
