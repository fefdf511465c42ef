/**
 * What every endpoint does before it has an answer: check the body, render the prompt with the
 * template, and open the raw completion request to the backend. The endpoints differ only in how they
 * name fields (Chat Completions vs Responses) and how they shape the answer.
 */
import type { FormatId } from "../formats/types.js";
import { isObject } from "../request/is-object.js";
import type { ParseOptions } from "../parse/index.js";
import type { ChatTemplate } from "../template/index.js";
import { ApiError, badRequest } from "./api-error.js";
import { openBackend, type BackendCall, type BackendPiece, type BackendProtocol, type TransportOptions } from "./backends/index.js";
import { readSampling, streamFlag, type SamplingFields } from "./sampling.js";

/** Everything fixed for the server's lifetime, shared by all requests. */
export interface ServerContext {
  template: ChatTemplate;
  protocol: BackendProtocol;
  transport: TransportOptions;
  /** The backend's name for the model (sent to openai/ollama backends, listed by /v1/models). */
  model: string | undefined;
  /** Markers the backend must print (llamacpp `preserved_tokens`) for completions in a format; none for other kinds. */
  preservedTokens: (format: FormatId) => readonly string[];
  /** A constraint grammar for the request (llamacpp only), or undefined when there is none to send. */
  grammar: (request: GrammarRequest) => string | undefined;
  /** Send the prompt's leading bos_token to the backend (default: strip it, backends add their own). */
  keepBos: boolean;
  /** Call ids for calls the model wrote none for (tests inject a deterministic one). */
  idGenerator: (() => string) | undefined;
  /** Largest request body accepted. */
  maxBodyBytes: number;
}

/** What a grammar is built from: the request, the format its completion is written in, the prompt's end. */
export interface GrammarRequest {
  body: Record<string, unknown>;
  format: FormatId;
  promptSuffix: string;
}

/** A checked request with its prompt, ready to send. */
export interface Generation {
  body: Record<string, unknown>;
  prompt: string;
  stream: boolean;
  /** The model name the answer reports: the client's, else the server's. */
  model: string;
  call: BackendCall;
  /** Parser options that make the parse see the same prompt the backend got. */
  parseOptions: ParseOptions;
}

/** How much of the prompt's end the parser is shown (as ChatTemplate.parse does) to see an opened `<think>`. */
const PROMPT_SUFFIX_LENGTH = 200;

export const DEFAULT_MODEL_NAME = "chatwire";

/**
 * Checks the body and renders it. `conversationField` is what this endpoint requires (`messages` or
 * `input`), so a Responses body sent to /v1/chat/completions is a clear 400 and not a surprise.
 */
export function prepareGeneration(ctx: ServerContext, raw: unknown, conversationField: "messages" | "input", fields: SamplingFields): Generation {
  if (!isObject(raw)) throw new ApiError(400, "invalid_request_error", "the request body must be a JSON object", { code: "invalid_request" });
  const body = raw;
  if (body[conversationField] === undefined) throw badRequest(conversationField, "is required");
  if (body.model !== undefined && typeof body.model !== "string") throw badRequest("model", "must be a string");
  const backendModel = ctx.model ?? (body.model as string | undefined);
  if (ctx.protocol.needsModel && backendModel === undefined) {
    throw badRequest("model", `is required: the ${ctx.protocol.kind} backend needs a model name (or start the server with --model)`);
  }
  const stream = streamFlag(body);
  const sampling = readSampling(body, fields);
  const rendered = ctx.template.render(body);
  const prompt = ctx.keepBos ? rendered : withoutLeadingBos(rendered, ctx.template.specialTokens.bos_token);
  const promptSuffix = rendered.slice(-PROMPT_SUFFIX_LENGTH);
  // The format can depend on the request (json-block when the template has no tool syntax and the
  // tool polyfill rendered the tools); the parser makes the same choice.
  const format = ctx.template.formatFor(body);
  const call: BackendCall = {
    prompt,
    sampling,
    stream,
    model: backendModel,
    grammar: ctx.grammar({ body, format, promptSuffix }),
    preservedTokens: ctx.preservedTokens(format),
  };
  const parseOptions: ParseOptions = { promptSuffix };
  if (ctx.idGenerator !== undefined) parseOptions.idGenerator = ctx.idGenerator;
  return { body, prompt, stream, model: (body.model as string | undefined) ?? ctx.model ?? DEFAULT_MODEL_NAME, call, parseOptions };
}

/**
 * llama-server, vLLM and Ollama tokenize a text prompt with the model's BOS added; a template that
 * prints `bos_token` itself would then give the model two (llama.cpp issue #6982).
 */
function withoutLeadingBos(prompt: string, bos: string | undefined): string {
  return bos !== undefined && bos !== "" && prompt.startsWith(bos) ? prompt.slice(bos.length) : prompt;
}

/** Sends the generation to the backend; `signal` aborts it (the client went away). */
export function startBackend(ctx: ServerContext, generation: Generation, signal: AbortSignal): Promise<AsyncIterable<BackendPiece>> {
  return openBackend(ctx.protocol, generation.call, ctx.transport, signal);
}

/** What the backend said about the whole answer, gathered from its pieces. */
export interface BackendOutcome {
  stop: "stop" | "length" | undefined;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
}

export function noteOutcome(outcome: BackendOutcome, piece: BackendPiece): void {
  if (piece.stop !== undefined) outcome.stop = piece.stop;
  if (piece.usage !== undefined) {
    const { promptTokens, completionTokens } = piece.usage;
    outcome.usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  }
}
