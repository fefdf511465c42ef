/**
 * `POST /v1/responses` (stateless: no `previous_response_id`, nothing stored). The request's
 * `instructions` and `input` items are rendered through the template like any conversation; the
 * completion is parsed into `output` items (reasoning, message, function_call) by ResponseOutput, the
 * same builder for streamed (named SSE events) and whole answers.
 */
import type { ServerResponse } from "node:http";
import { randomAlphanumeric } from "../parse/ids.js";
import { isObject } from "../request/is-object.js";
import type { ParseIssue } from "../types.js";
import { badRequest, toApiError } from "./api-error.js";
import type { BackendPiece } from "./backends/index.js";
import type { Exchange } from "./exchange.js";
import { pushSliced } from "./feed.js";
import { withoutIndex } from "./held-calls.js";
import { noteOutcome, prepareGeneration, startBackend, type BackendOutcome, type Generation, type ServerContext } from "./generation.js";
import { endEvents, readJsonBody, sendJson, startEvents, writeEvent } from "./http-io.js";
import { ResponseOutput, type EmitEvent, type OutputItem } from "./responses-output.js";
import { RESPONSES_SAMPLING } from "./sampling.js";

export async function responses(ctx: ServerContext, ex: Exchange): Promise<void> {
  const raw = await readJsonBody(ex, ctx.maxBodyBytes);
  if (isObject(raw) && raw.previous_response_id !== undefined && raw.previous_response_id !== null) {
    throw badRequest("previous_response_id", "is not supported: this server stores nothing; send the whole conversation in `input`");
  }
  const generation = await prepareGeneration(ctx, raw, "input", RESPONSES_SAMPLING, ex.gone);
  ex.bodyText = undefined; // the request is read and checked; a long generation need not keep its text
  const pieces = await startBackend(ctx, generation, ex.gone);
  const shell = responseShell(generation);
  if (generation.stream) await streamResponse(ctx, generation, pieces, shell, ex);
  else await wholeResponse(ctx, generation, pieces, shell, ex);
}

/** The fields of the response object that do not depend on the answer. */
function responseShell(generation: Generation): Record<string, unknown> {
  const body = generation.body;
  return {
    id: `resp_${randomAlphanumeric(24)}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "in_progress",
    error: null,
    incomplete_details: null,
    instructions: typeof body.instructions === "string" ? body.instructions : null,
    model: generation.model,
    output: [],
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    temperature: generation.call.sampling.temperature ?? null,
    top_p: generation.call.sampling.topP ?? null,
    max_output_tokens: generation.call.sampling.maxTokens ?? null,
    tool_choice: body.tool_choice ?? "auto",
    tools: Array.isArray(body.tools) ? body.tools : [],
    store: false,
    usage: null,
  };
}

function finished(shell: Record<string, unknown>, output: OutputItem[], outcome: BackendOutcome, errors: ParseIssue[]): Record<string, unknown> {
  const cut = outcome.stop === "length";
  const usage = outcome.usage;
  return {
    ...shell,
    status: cut ? "incomplete" : "completed",
    incomplete_details: cut ? { reason: "max_output_tokens" } : null,
    output,
    usage: usage === undefined ? null : { input_tokens: usage.prompt_tokens, output_tokens: usage.completion_tokens, total_tokens: usage.total_tokens },
    chatwire_errors: errors,
  };
}

/** Feeds the backend's text through the stream parser into `output`; returns what the backend said. */
async function run(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece[]>, output: ResponseOutput, alive: () => boolean): Promise<{ outcome: BackendOutcome; errors: ParseIssue[] }> {
  const parser = ctx.template.streamParser(generation.body, generation.parseOptions);
  const outcome: BackendOutcome = { stop: undefined, usage: undefined };
  let errors: ParseIssue[] = [];
  const take = (deltas: ReturnType<typeof parser.end>): void => {
    for (const delta of deltas) {
      if (delta.errors !== undefined) errors = delta.errors;
      output.push(delta);
    }
  };
  read: for await (const batch of pieces) {
    for (const piece of batch) {
      if (!alive()) break read; // leaving the loop aborts the backend request
      noteOutcome(outcome, piece);
      if (piece.text === "") continue;
      const slicing = pushSliced(parser, piece.text, take);
      if (slicing !== undefined) await slicing;
    }
  }
  take(parser.end());
  return { outcome, errors };
}

async function wholeResponse(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece[]>, shell: Record<string, unknown>, ex: Exchange): Promise<void> {
  const output = new ResponseOutput(undefined, ctx.holdCalls);
  const { outcome, errors } = await run(ctx, generation, pieces, output, () => true);
  if (outcome.usage !== undefined) ex.usage = outcome.usage;
  // One-shot errors carry no `index` (nothing was streamed that a client must drop).
  sendJson(ex.res, 200, finished(shell, output.finish(errors), outcome, withoutIndex(errors)));
}

async function streamResponse(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece[]>, shell: Record<string, unknown>, ex: Exchange): Promise<void> {
  const res: ServerResponse = ex.res;
  let sequence = 0;
  const emit: EmitEvent = (type, fields) => writeEvent(res, { type, sequence_number: sequence++, ...fields }, type);
  startEvents(res);
  emit("response.created", { response: shell });
  emit("response.in_progress", { response: shell });
  const output = new ResponseOutput(emit, ctx.holdCalls);
  try {
    const { outcome, errors } = await run(ctx, generation, pieces, output, () => !res.destroyed);
    if (res.destroyed) return;
    if (outcome.usage !== undefined) ex.usage = outcome.usage;
    // Held calls: nothing invalid was streamed, so no index to drop (the same errors as the whole answer).
    const response = finished(shell, output.finish(errors), outcome, ctx.holdCalls ? withoutIndex(errors) : errors);
    emit(response.status === "incomplete" ? "response.incomplete" : "response.completed", { response });
  } catch (err) {
    const { error } = toApiError(err).toJSON();
    emit("error", { code: error.code, message: error.message, param: error.param });
  }
  endEvents(res);
}
