/**
 * A Node stream's chunks one at a time (a backend's streamed answer), read with event listeners:
 * Readable's async iterator cost an async generator, an end-of-stream watcher and its listeners per
 * stream, and a read() with its ticks per chunk, about 2% of a served request's CPU. One chunk is held
 * at most: the stream is paused while the consumer has not asked for the next, so a slow consumer
 * holds the backend back (TCP backpressure) as the iterator did.
 */
import type { Readable } from "node:stream";
import { prematureClose } from "./read-all.js";

export class ChunkReader {
  private readonly queue: Buffer[] = [];
  private ended = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly stream: Readable) {
    if (stream.readableEnded) this.ended = true;
    else if (stream.destroyed) this.failure = stream.errored ?? prematureClose();
    else {
      stream.on("data", this.onData);
      stream.on("end", this.onEnd);
      stream.on("error", this.onError);
      stream.on("close", this.onClose);
    }
  }

  /** The next chunk, undefined at the end; rejects with the stream's error (or a premature close). */
  async next(): Promise<Buffer | undefined> {
    for (;;) {
      const chunk = this.queue.shift();
      if (chunk !== undefined) return chunk;
      if (this.failure !== undefined) throw this.failure;
      if (this.ended) return undefined;
      if (this.stream.isPaused()) this.stream.resume();
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Stops reading; a stream not at its end is destroyed (what leaving the async iterator early did). */
  stop(): void {
    this.detach();
    if (!this.ended && !this.stream.destroyed) this.stream.destroy();
  }

  private readonly onData = (chunk: Buffer): void => {
    this.queue.push(chunk);
    if (this.wake === undefined) this.stream.pause();
    this.signal();
  };

  private readonly onEnd = (): void => {
    this.ended = true;
    this.detach();
    this.signal();
  };

  private readonly onError = (err: Error): void => {
    this.failure ??= err;
    this.detach();
    this.signal();
  };

  private readonly onClose = (): void => {
    if (!this.ended) this.failure ??= prematureClose();
    this.detach();
    this.signal();
  };

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The error listener stays: an error after the end (a cancel that raced it) must not be unhandled. */
  private detach(): void {
    this.stream.off("data", this.onData);
    this.stream.off("end", this.onEnd);
    this.stream.off("close", this.onClose);
  }
}
