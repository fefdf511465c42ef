/**
 * What every endpoint does before it has an answer: check the body, render the prompt with the
 * template (as token ids with provenance, or as text when the server was told to), choose the
 * generation constraint, and open the raw completion request to the backend. The endpoints differ only
 * in how they name fields (Chat Completions vs Responses) and how they shape the answer.
 */
import type { FormatDescription, FormatId } from "../formats/types.js";
import { isObject } from "../request/is-object.js";
import type { ParseOptions } from "../parse/index.js";
import { PROMPT_SUFFIX_LENGTH } from "../template/chat-template.js";
import type { ChatTemplate } from "../template/index.js";
import { ApiError, badRequest } from "./api-error.js";
import { openBackend, type BackendCall, type BackendPiece, type BackendProtocol, type CancelSource, type Constraint, type TransportOptions } from "./backends/index.js";
import { NEVER_ABORTED } from "./client-gone.js";
import { inProcessPrompts, type PromptTokenizer } from "./prompt-tokens.js";
import { readParseFields } from "./parse-fields.js";
import { chooseConstraint } from "./request-constraint.js";
import type { RequestGrammars } from "./request-grammar.js";
import { responseFormatOf } from "./response-format.js";
import { readSampling, streamFlag, type SamplingFields } from "./sampling.js";

/** Everything fixed for the server's lifetime, shared by all requests. */
export interface ServerContext {
  template: ChatTemplate;
  protocol: BackendProtocol;
  transport: TransportOptions;
  /** The backend's name for the model (sent to openai/vllm/sglang/ollama backends, listed by /v1/models). */
  model: string | undefined;
  /** Markers the backend must print (llamacpp `preserved_tokens`) for completions in a format; none for other kinds. */
  preservedTokens: (format: FormatDescription) => readonly string[];
  /** The tool-call constraints for a request (src/grammar), or undefined when none are sent. */
  grammars: RequestGrammars | undefined;
  /** Token ids with provenance for the prompts sent; undefined when the server sends text (`--text-prompt`). */
  prompts: PromptTokenizer | undefined;
  /** The tokenizer for /tokenize and /detokenize (there may be one even when prompts go as text). */
  tokenizer: PromptTokenizer | undefined;
  /** Send the prompt's leading bos_token to a text backend (default: strip it, backends add their own). */
  keepBos: boolean;
  /** Call ids for calls the model wrote none for (tests inject a deterministic one). */
  idGenerator: (() => string) | undefined;
  /** Largest request body accepted. */
  maxBodyBytes: number;
  /** Hold streamed tool calls until they validate (see docs/server.md, "Streaming tool calls"). */
  holdCalls: boolean;
}

/** What a grammar is built from: the request, the format its completion is written in, the prompt's end. */
export interface GrammarRequest {
  body: Record<string, unknown>;
  format: FormatId;
  /** The format's description as parsed (json-block carries the template's reasoning markers when polyfilled). */
  output: FormatDescription;
  promptSuffix: string;
}

/** A checked request with its prompt, ready to send. */
export interface Generation {
  body: Record<string, unknown>;
  /** The rendered prompt as text (the ids, when sent, encode exactly this). */
  prompt: string;
  stream: boolean;
  /** The model name the answer reports: the client's, else the server's. */
  model: string;
  call: BackendCall;
  /** Parser options that make the parse see the same prompt the backend got. */
  parseOptions: ParseOptions;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export const DEFAULT_MODEL_NAME = "chatwire";

/** Checks the parts of a body every endpoint shares; the body as an object. */
export function checkBody(ctx: ServerContext, raw: unknown, conversationField: "messages" | "input"): Record<string, unknown> {
  if (!isObject(raw)) throw new ApiError(400, "invalid_request_error", "the request body must be a JSON object", { code: "invalid_request" });
  if (raw[conversationField] === undefined) throw badRequest(conversationField, "is required");
  if (raw.model !== undefined && typeof raw.model !== "string") throw badRequest("model", "must be a string");
  if (ctx.protocol.needsModel && ctx.model === undefined && raw.model === undefined) {
    throw badRequest("model", `is required: the ${ctx.protocol.kind} backend needs a model name (or start the server with --model)`);
  }
  return raw;
}

/** The prompt for `body`: ids with provenance when the server has a tokenizer, else text. */
export async function renderPrompt(ctx: ServerContext, body: Record<string, unknown>, cancel: CancelSource): Promise<{ text: string; sent: string | number[] }> {
  if (ctx.prompts !== undefined) {
    // Ids are the template's text exactly, BOS included when it prints one (as transformers'
    // apply_chat_template(tokenize=True)); backends use an id prompt as given. An in-process
    // tokenizer never waits, so the client's AbortSignal is not made for it (client-gone.ts).
    const signal = inProcessPrompts.has(ctx.prompts) ? NEVER_ABORTED : cancel.signal;
    const { text, ids } = await ctx.prompts.encode(ctx.template, body, signal);
    return { text, sent: ids };
  }
  const text = ctx.template.render(body);
  return { text, sent: ctx.keepBos ? text : withoutLeadingBos(text, ctx.template.specialTokens.bos_token) };
}

/**
 * Checks the body and renders it. `conversationField` is what this endpoint requires (`messages` or
 * `input`), so a Responses body sent to /v1/chat/completions is a clear 400 and not a surprise.
 */
export async function prepareGeneration(
  ctx: ServerContext,
  raw: unknown,
  conversationField: "messages" | "input",
  fields: SamplingFields,
  cancel: CancelSource,
): Promise<Generation> {
  const body = checkBody(ctx, raw, conversationField);
  const stream = streamFlag(body);
  const sampling = readSampling(body, fields);
  const responseFormat = responseFormatOf(body, conversationField === "messages" ? "chat" : "responses");
  const parseFields = readParseFields(body);
  const { text, sent } = await renderPrompt(ctx, body, cancel);
  // Rendering (with its tool-schema compile) and the grammar build are each bounded, but a huge tool
  // list makes both long: a turn of the event loop between them keeps other clients answered.
  await nextTurn();
  const promptSuffix = text.slice(-PROMPT_SUFFIX_LENGTH);
  // The format can depend on the request (json-block when the template has no tool syntax and the
  // tool polyfill rendered the tools); the parser makes the same choice.
  const format = ctx.template.formatFor(body);
  // json-block with the template's reasoning markers when polyfilled (what the parse reads too).
  const output = ctx.template.outputFormat(body);
  const call: BackendCall = {
    prompt: sent,
    sampling,
    stream,
    model: ctx.model ?? (body.model as string | undefined),
    constraint: await chooseConstraint({ accepts: ctx.protocol.constraints, grammars: ctx.grammars, tokenizer: ctx.tokenizer }, { body, format, output, promptSuffix }, responseFormat, cancel),
    preservedTokens: ctx.preservedTokens(output),
  };
  const parseOptions: ParseOptions = { ...parseFields, promptSuffix };
  if (ctx.idGenerator !== undefined) parseOptions.idGenerator = ctx.idGenerator;
  return { body, prompt: text, stream, model: (body.model as string | undefined) ?? ctx.model ?? DEFAULT_MODEL_NAME, call, parseOptions };
}

/**
 * llama-server, vLLM and Ollama tokenize a text prompt with the model's BOS added; a template that
 * prints `bos_token` itself would then give the model two (llama.cpp issue #6982).
 */
function withoutLeadingBos(prompt: string, bos: string | undefined): string {
  return bos !== undefined && bos !== "" && prompt.startsWith(bos) ? prompt.slice(bos.length) : prompt;
}

/** Sends the generation to the backend; `cancel` stops it (the client went away). */
export function startBackend(ctx: ServerContext, generation: Generation, cancel: CancelSource): Promise<AsyncIterable<BackendPiece[]>> {
  return openBackend(ctx.protocol, generation.call, ctx.transport, cancel);
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
