/**
 * `POST /v1/chat/completions`: render, complete on the backend, parse. Non-streaming answers are a
 * `chat.completion`; streaming answers forward each parser Delta as a `chat.completion.chunk` event as
 * soon as the backend's text produces it, then `data: [DONE]`. Both run the same stream parser over the
 * backend's text, so they agree by construction. Parse issues are reported in `chatwire_errors`
 * (docs/server.md says how clients read them).
 */
import { randomAlphanumeric } from "../parse/ids.js";
import { foldDeltas } from "../parse/index.js";
import { isObject } from "../request/is-object.js";
import type { Delta, FinishReason, ParseIssue } from "../types.js";
import { toApiError } from "./api-error.js";
import type { BackendPiece } from "./backends/index.js";
import type { Exchange } from "./exchange.js";
import { pushSliced } from "./feed.js";
import { noteOutcome, prepareGeneration, startBackend, type BackendOutcome, type Generation, type ServerContext } from "./generation.js";
import { CallHolder, withoutIndex } from "./held-calls.js";
import { chunkText, type ChunkHead } from "./chunk-text.js";
import { endEvents, readJsonBody, sendJson, startEvents, writeDone, writeEvent, writeEventJson } from "./http-io.js";
import { CHAT_SAMPLING } from "./sampling.js";

export async function chatCompletions(ctx: ServerContext, ex: Exchange): Promise<void> {
  const generation = await prepareGeneration(ctx, await readJsonBody(ex, ctx.maxBodyBytes), "messages", CHAT_SAMPLING, ex.gone);
  ex.bodyText = undefined; // the request is read and checked; a long generation need not keep its text
  const pieces = await startBackend(ctx, generation, ex.gone);
  const head = { id: `chatcmpl-${randomAlphanumeric(24)}`, created: Math.floor(Date.now() / 1000), model: generation.model };
  if (generation.stream) await streamAnswer(ctx, generation, pieces, head, ex);
  else await wholeAnswer(ctx, generation, pieces, head, ex);
}

/** The backend's verdict wins when it ran out of tokens: the answer is cut, whatever was parsed. */
function finishReason(parsed: FinishReason, outcome: BackendOutcome): FinishReason {
  return outcome.stop === "length" ? "length" : parsed;
}

async function wholeAnswer(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece[]>, head: ChunkHead, ex: Exchange): Promise<void> {
  const outcome: BackendOutcome = { stop: undefined, usage: undefined };
  const parser = ctx.template.streamParser(generation.body, generation.parseOptions);
  const deltas: Delta[] = [];
  const take = (more: Delta[]): void => {
    for (const d of more) deltas.push(d);
  };
  for await (const batch of pieces) {
    for (const piece of batch) {
      noteOutcome(outcome, piece);
      if (piece.text === "") continue;
      const slicing = pushSliced(parser, piece.text, take);
      if (slicing !== undefined) await slicing;
    }
  }
  take(parser.end());
  // push-all + end + fold is what template.parse does: the same message as the one-shot parse.
  const result = foldDeltas(deltas);
  const answer: Record<string, unknown> = {
    ...head,
    object: "chat.completion",
    choices: [{ index: 0, message: result.message, finish_reason: finishReason(result.finish_reason, outcome), logprobs: null }],
  };
  if (outcome.usage !== undefined) answer.usage = ex.usage = outcome.usage;
  answer.chatwire_errors = result.errors;
  sendJson(ex.res, 200, answer);
}

async function streamAnswer(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece[]>, head: ChunkHead, ex: Exchange): Promise<void> {
  const { res } = ex;
  const options = generation.body.stream_options;
  const includeUsage = isObject(options) && options.include_usage === true;
  const chunk = chunkText(head);
  const outcome: BackendOutcome = { stop: undefined, usage: undefined };
  const parser = ctx.template.streamParser(generation.body, generation.parseOptions);
  const holder = ctx.holdCalls ? new CallHolder() : undefined;
  let finish: FinishReason = "stop";
  let errors: ParseIssue[] = [];
  const forward = (deltas: Delta[]): void => {
    for (const whole of deltas) {
      const shown = holder === undefined ? whole : holder.take(whole);
      if (shown === undefined) continue;
      const { finish_reason, errors: deltaErrors, ...delta } = shown;
      if (finish_reason !== undefined) finish = finish_reason;
      if (deltaErrors !== undefined) errors = deltaErrors;
      if (Object.keys(delta).length > 0) writeEventJson(res, chunk.choice(delta));
    }
  };
  startEvents(res);
  writeEventJson(res, chunk.choice({ role: "assistant", content: "" }));
  try {
    for await (const batch of pieces) {
      for (const piece of batch) {
        if (res.destroyed) return; // the client left; leaving the loop aborts the backend request
        noteOutcome(outcome, piece);
        if (piece.text === "") continue;
        const slicing = pushSliced(parser, piece.text, forward);
        if (slicing !== undefined) await slicing;
      }
    }
    forward(parser.end());
  } catch (err) {
    // Headers are sent: the failure becomes the stream's last event, as OpenAI-compatible servers do.
    writeEvent(res, toApiError(err).toJSON());
    writeDone(res);
    endEvents(res);
    return;
  }
  if (holder !== undefined) {
    // The calls that validated, whole, numbered without gaps; nothing invalid was streamed, so the
    // errors name no index to drop.
    const calls = holder.kept(errors).map((c, index) => ({ index, id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
    if (calls.length > 0) writeEventJson(res, chunk.choice({ tool_calls: calls }));
    errors = withoutIndex(errors);
  }
  // Early-streamed calls keep `index` on their errors: a call whose index is listed failed validation
  // after it was streamed, and the client must drop it.
  writeEventJson(res, chunk.choice({}, finishReason(finish, outcome), { key: "chatwire_errors", value: errors }));
  if (outcome.usage !== undefined) ex.usage = outcome.usage;
  if (includeUsage) writeEventJson(res, chunk.noChoices("usage", outcome.usage ?? null));
  writeDone(res);
  endEvents(res);
}
