/**
 * `POST /v1/chat/completions`: render, complete on the backend, parse. Non-streaming answers are a
 * `chat.completion` from `template.parse`; streaming answers forward each parser Delta as a
 * `chat.completion.chunk` event as soon as the backend's text produces it, then `data: [DONE]`.
 * Parse issues are reported in `chatwire_errors` (docs/server.md says how clients read them).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { randomAlphanumeric } from "../parse/ids.js";
import { isObject } from "../request/is-object.js";
import type { Delta, FinishReason, ParseIssue } from "../types.js";
import { toApiError } from "./api-error.js";
import type { BackendPiece } from "./backends/index.js";
import { noteOutcome, prepareGeneration, startBackend, type BackendOutcome, type Generation, type ServerContext } from "./generation.js";
import { readJsonBody, sendJson, startEvents, writeDone, writeEvent } from "./http-io.js";
import { CHAT_SAMPLING } from "./sampling.js";

export async function chatCompletions(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
  const generation = prepareGeneration(ctx, await readJsonBody(req, ctx.maxBodyBytes), "messages", CHAT_SAMPLING);
  const pieces = await startBackend(ctx, generation, signal);
  const head = { id: `chatcmpl-${randomAlphanumeric(24)}`, created: Math.floor(Date.now() / 1000), model: generation.model };
  if (generation.stream) await streamAnswer(ctx, generation, pieces, head, res);
  else await wholeAnswer(ctx, generation, pieces, head, res);
}

interface Head {
  id: string;
  created: number;
  model: string;
}

/** The backend's verdict wins when it ran out of tokens: the answer is cut, whatever was parsed. */
function finishReason(parsed: FinishReason, outcome: BackendOutcome): FinishReason {
  return outcome.stop === "length" ? "length" : parsed;
}

async function wholeAnswer(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece>, head: Head, res: ServerResponse): Promise<void> {
  const outcome: BackendOutcome = { stop: undefined, usage: undefined };
  const texts: string[] = [];
  for await (const piece of pieces) {
    texts.push(piece.text);
    noteOutcome(outcome, piece);
  }
  const result = ctx.template.parse(texts.join(""), generation.body, generation.parseOptions);
  const answer: Record<string, unknown> = {
    ...head,
    object: "chat.completion",
    choices: [{ index: 0, message: result.message, finish_reason: finishReason(result.finish_reason, outcome), logprobs: null }],
  };
  if (outcome.usage !== undefined) answer.usage = outcome.usage;
  answer.chatwire_errors = result.errors;
  sendJson(res, 200, answer);
}

async function streamAnswer(ctx: ServerContext, generation: Generation, pieces: AsyncIterable<BackendPiece>, head: Head, res: ServerResponse): Promise<void> {
  const options = generation.body.stream_options;
  const includeUsage = isObject(options) && options.include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => ({ ...head, object: "chat.completion.chunk", choices, ...extra });
  const outcome: BackendOutcome = { stop: undefined, usage: undefined };
  const parser = ctx.template.streamParser(generation.body, generation.parseOptions);
  let finish: FinishReason = "stop";
  let errors: ParseIssue[] = [];
  const forward = (deltas: Delta[]): void => {
    for (const { finish_reason, errors: deltaErrors, ...delta } of deltas) {
      if (finish_reason !== undefined) finish = finish_reason;
      if (deltaErrors !== undefined) errors = deltaErrors;
      if (Object.keys(delta).length > 0) writeEvent(res, chunk([{ index: 0, delta, finish_reason: null, logprobs: null }]));
    }
  };
  startEvents(res);
  writeEvent(res, chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null }]));
  try {
    for await (const piece of pieces) {
      if (res.destroyed) return; // the client left; leaving the loop aborts the backend request
      noteOutcome(outcome, piece);
      if (piece.text !== "") forward(parser.push(piece.text));
    }
    forward(parser.end());
  } catch (err) {
    // Headers are sent: the failure becomes the stream's last event, as OpenAI-compatible servers do.
    writeEvent(res, toApiError(err).toJSON());
    writeDone(res);
    res.end();
    return;
  }
  // `index` stays on streamed errors: a call whose index is listed failed validation after it was
  // streamed, and the client must drop it.
  writeEvent(res, chunk([{ index: 0, delta: {}, finish_reason: finishReason(finish, outcome), logprobs: null }], { chatwire_errors: errors }));
  if (includeUsage) writeEvent(res, chunk([], { usage: outcome.usage ?? null }));
  writeDone(res);
  res.end();
}
