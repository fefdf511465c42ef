/**
 * Cutting a backend's streamed body into JSON payloads: Server-Sent Events (`data:` lines up to a
 * blank line; `[DONE]` ends the stream) or NDJSON (one JSON value per line). Bytes are decoded
 * incrementally, so a UTF-8 character split across network chunks is not broken.
 */
import { BackendError } from "./types.js";

/** The body's lines, without their line ends (`\n`, `\r\n` or `\r`). */
export async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of chunks) {
    pending += decoder.decode(chunk, { stream: true });
    // A `\r` at the end may be the first half of a `\r\n` split across chunks: keep it for the next one.
    const carry = pending.endsWith("\r");
    // Only the unfinished last line is carried over, so the work per chunk is proportional to the chunk.
    const parts = (carry ? pending.slice(0, -1) : pending).split(/\r\n|\r|\n/);
    pending = (parts.pop() ?? "") + (carry ? "\r" : "");
    yield* parts;
  }
  pending = (pending + decoder.decode()).replace(/\r$/, "");
  if (pending !== "") yield pending;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BackendError(`the backend sent ${what} that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
  }
}

/** SSE `data` payloads parsed as JSON; stops at `[DONE]`. Comments and other fields are skipped. */
export async function* sseJson(source: AsyncIterable<string>): AsyncGenerator<unknown> {
  let data: string[] = [];
  for await (const line of source) {
    if (line === "") {
      if (data.length > 0) {
        const payload = data.join("\n");
        data = [];
        if (payload.trim() === "[DONE]") return;
        yield parseJson(payload, "an event");
      }
      continue;
    }
    if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  // A last event without its blank line (the connection closed right after it).
  const payload = data.join("\n");
  if (data.length > 0 && payload.trim() !== "[DONE]") yield parseJson(payload, "an event");
}

/** One JSON value per non-empty line. */
export async function* ndjson(source: AsyncIterable<string>): AsyncGenerator<unknown> {
  for await (const line of source) {
    if (line.trim() !== "") yield parseJson(line, "a line");
  }
}
