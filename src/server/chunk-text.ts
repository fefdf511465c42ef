/**
 * The JSON text of a stream's `chat.completion.chunk` events. The fields every chunk of a stream shares
 * (id, created, model, object) are printed once; each chunk is then one template string around its
 * delta's JSON, the same text as toJson of the chunk object (`{...head, object, choices, ...extra}`,
 * a choice `{index, delta, finish_reason, logprobs}`), without building that object and walking it.
 */
import type { FinishReason } from "../types.js";
import { toJson } from "./json-text.js";

export interface ChunkHead {
  id: string;
  created: number;
  model: string;
}

export interface ChunkText {
  /** A chunk of one choice; `extra` is a field after `choices` (the last chunk's `chatwire_errors`). */
  choice(delta: unknown, finish?: FinishReason | null, extra?: { key: string; value: unknown }): string;
  /** A chunk with no choices and one field after them (`usage`). */
  noChoices(key: string, value: unknown): string;
}

export function chunkText(head: ChunkHead): ChunkText {
  const open = `{"id":${JSON.stringify(head.id)},"created":${JSON.stringify(head.created)},"model":${JSON.stringify(head.model)},"object":"chat.completion.chunk","choices":`;
  const field = (key: string, value: unknown): string => `,${JSON.stringify(key)}:${toJson(value)}`;
  return {
    choice: (delta, finish = null, extra) =>
      `${open}[{"index":0,"delta":${toJson(delta)},"finish_reason":${JSON.stringify(finish)},"logprobs":null}]${extra === undefined ? "" : field(extra.key, extra.value)}}`,
    noChoices: (key, value) => `${open}[]${field(key, value)}}`,
  };
}
