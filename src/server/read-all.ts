/**
 * A Node stream read to its end (a request body, a backend's whole answer) with event listeners: a
 * stream's async iterator cost an async generator, its promises and an end-of-stream watcher per read,
 * a visible part of a small request's CPU. Past `limit` bytes it stops and gives the first `limit`
 * bytes with `over` set: a backend's answer is destroyed then (its connection cut, as leaving the
 * iterator early did), a client's request is paused (as the iterator left it: its socket stays, for
 * the 413 answer).
 */
import type { Readable } from "node:stream";

export interface ReadAll {
  bytes: Buffer;
  /** The stream had more than `limit` bytes; `bytes` is its first `limit`. */
  over: boolean;
}

/** The error a stream closed before its end gives (the message and code Node's own readers use). */
export function prematureClose(): Error {
  return Object.assign(new Error("Premature close"), { code: "ERR_STREAM_PREMATURE_CLOSE" });
}

/** `onChunk` runs for each chunk as it arrives (the backend's idle timer); `over` is what is done with a stream past the limit. */
export function readAll(stream: Readable, limit: number, onChunk?: () => void, over: "destroy" | "pause" = "destroy"): Promise<ReadAll> {
  return new Promise((resolve, reject) => {
    if (stream.readableEnded) return resolve({ bytes: Buffer.alloc(0), over: false });
    if (stream.destroyed) return reject(stream.errored ?? prematureClose());
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (): void => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.off("close", onClose);
    };
    const onData = (chunk: Buffer): void => {
      onChunk?.();
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      chunks.push(chunk.subarray(0, chunk.length - (size - limit)));
      settle();
      if (over === "destroy") stream.destroy();
      else stream.pause();
      resolve({ bytes: Buffer.concat(chunks), over: true });
    };
    const onEnd = (): void => {
      settle();
      resolve({ bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks), over: false });
    };
    const onError = (err: Error): void => {
      settle();
      reject(err);
    };
    const onClose = (): void => {
      settle();
      reject(prematureClose());
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.on("close", onClose);
  });
}

/** UTF-8 text of whole bytes (a leading BOM dropped, invalid bytes as U+FFFD), one decoder for all. */
const utf8 = new TextDecoder();
export function utf8Text(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
