/**
 * Cutting a backend's streamed body into JSON payloads: Server-Sent Events (`data:` lines up to a
 * blank line; `[DONE]` ends the stream) or NDJSON (one JSON value per line). Bytes are decoded
 * incrementally, so a UTF-8 character split across network chunks is not broken.
 *
 * Synchronous, one network chunk at a time: each chunk gives the payloads it completes. A chain of
 * async generators (bytes, lines, events) cost a promise and a microtask per line at every level, more
 * than the JSON.parse of the event itself.
 */
import { BackendError } from "./types.js";

const LINE_END = /\r\n|\r|\n/;

/**
 * Lines out of bytes, without their line ends (`\n`, `\r\n` or `\r`). Linear in the body's size however
 * long a line is: each chunk is searched once, and an unfinished line is kept as a list of pieces
 * joined only when its end arrives (re-scanning a growing string made a 16 MB line quadratic).
 */
export class LineReader {
  private readonly decoder = new TextDecoder();
  private pending: string[] = [];
  // A `\r` ended the last chunk: a `\n` starting the next one belongs to the same line end.
  private afterCr = false;

  /** Hands `line` each line `chunk` completes. */
  push(chunk: Uint8Array, line: (text: string) => void): void {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith("\n")) text = text.slice(1);
    if (text === "") return;
    this.afterCr = text.endsWith("\r");
    const parts = text.split(LINE_END);
    if (parts.length === 1) {
      this.pending.push(text);
      return;
    }
    this.pending.push(parts[0] ?? "");
    const first = this.pending.length === 1 ? (this.pending[0] ?? "") : this.pending.join("");
    line(first);
    for (let i = 1; i < parts.length - 1; i++) line(parts[i] ?? "");
    const last = parts[parts.length - 1] ?? "";
    this.pending = last === "" ? [] : [last];
  }

  /** The body has ended: hands `line` an unfinished last line, if any. */
  end(line: (text: string) => void): void {
    const rest = this.pending.join("") + this.decoder.decode();
    this.pending = [];
    if (rest !== "") line(rest);
  }
}

/**
 * The payloads parsed so far. A payload that is not JSON fails the stream, but only after the payloads
 * before it have been handed on (as when each event was read on its own): take() returns those first,
 * and throws at the next call.
 */
class Output {
  private values: unknown[] = [];
  private failure: BackendError | undefined;

  get failed(): boolean {
    return this.failure !== undefined;
  }

  parse(text: string, what: string): void {
    try {
      this.values.push(JSON.parse(text) as unknown);
    } catch {
      this.failure = new BackendError(`the backend sent ${what} that is not JSON: ${JSON.stringify(text.slice(0, 200))}`);
    }
  }

  /** Throws the failure, if any (once the payloads before it have been taken). */
  check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  take(): unknown[] {
    const taken = this.values;
    if (taken.length === 0 && this.failure !== undefined) throw this.failure;
    this.values = [];
    return taken;
  }
}

/** A streamed body's JSON payloads, chunk by chunk. `done` is set once the stream has said it is over (`[DONE]`). */
export interface FrameReader {
  /** The payloads `chunk` completes, in order (none after `done`). */
  push(chunk: Uint8Array): unknown[];
  /** The body has ended: the payloads its unfinished end completes. */
  end(): unknown[];
  /** Throws when a payload was not JSON: call it once the payloads push() gave are handled, so the stream fails without waiting for more bytes. */
  check(): void;
  readonly done: boolean;
}

/** SSE `data` payloads parsed as JSON; stops at `[DONE]`. Comments and other fields are skipped. */
export function sseReader(): FrameReader {
  const reader = new LineReader();
  const out = new Output();
  let data: string[] = [];
  let done = false;
  const dispatch = (): void => {
    const payload = data.length === 1 ? (data[0] ?? "") : data.join("\n");
    data = [];
    if (payload.trim() === "[DONE]") done = true;
    else out.parse(payload, "an event");
  };
  const line = (text: string): void => {
    if (done || out.failed) return;
    if (text === "") {
      if (data.length > 0) dispatch();
      return;
    }
    if (text.startsWith("data:")) data.push(text.slice(text.startsWith("data: ") ? 6 : 5));
  };
  return {
    push(chunk) {
      if (!done && !out.failed) reader.push(chunk, line);
      return out.take();
    },
    end() {
      if (!done && !out.failed) reader.end(line);
      // A last event without its blank line (the connection closed right after it).
      if (!done && !out.failed && data.length > 0) dispatch();
      return out.take();
    },
    check: () => out.check(),
    get done() {
      return done;
    },
  };
}

/** One JSON value per non-empty line. */
export function ndjsonReader(): FrameReader {
  const reader = new LineReader();
  const out = new Output();
  const line = (text: string): void => {
    if (!out.failed && text.trim() !== "") out.parse(text, "a line");
  };
  return {
    push(chunk) {
      if (!out.failed) reader.push(chunk, line);
      return out.take();
    },
    end() {
      if (!out.failed) reader.end(line);
      return out.take();
    },
    check: () => out.check(),
    done: false,
  };
}
