/**
 * Cutting a backend's streamed body into JSON payloads: Server-Sent Events (`data:` lines up to a
 * blank line; `[DONE]` ends the stream) or NDJSON (one JSON value per line). Bytes are decoded
 * incrementally, so a UTF-8 character split across network chunks is not broken.
 */
import { BackendError } from "./types.js";

const LINE_END = /\r\n|\r|\n/;

/**
 * The body's lines, without their line ends (`\n`, `\r\n` or `\r`). Linear in the body's size however
 * long a line is: each chunk is searched once, and an unfinished line is kept as a list of pieces
 * joined only when its end arrives (re-scanning a growing string made a 16 MB line quadratic).
 */
export async function* lines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending: string[] = [];
  // A `\r` ended the last chunk: a `\n` starting the next one belongs to the same line end.
  let afterCr = false;
  for await (const chunk of chunks) {
    let text = decoder.decode(chunk, { stream: true });
    if (afterCr && text.startsWith("\n")) text = text.slice(1);
    if (text === "") continue;
    afterCr = text.endsWith("\r");
    const parts = text.split(LINE_END);
    if (parts.length === 1) {
      pending.push(text);
      continue;
    }
    pending.push(parts[0] ?? "");
    yield pending.join("");
    for (let i = 1; i < parts.length - 1; i++) yield parts[i] ?? "";
    const last = parts[parts.length - 1] ?? "";
    pending = last === "" ? [] : [last];
  }
  const rest = pending.join("") + decoder.decode();
  if (rest !== "") yield rest;
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
        const payload = data.length === 1 ? (data[0] ?? "") : data.join("\n");
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
