/**
 * The watch over one backend request: fired by the caller's signal (client gone), by the idle timer,
 * or by abort() (the consumer left); it remembers which, so a timeout is reported as 504 and not as a
 * broken connection.
 *
 * The completion request (http-post.ts) listens through listen(): one listener on the caller's cancel
 * (a client request's ClientGone, or an AbortSignal through signalSource()). fetch needs an
 * AbortSignal, made only when asked for: AbortSignal.any and two AbortControllers were a few percent of
 * a served request's CPU. The joined signal is AbortSignal.any rather than an abort
 * listener: a request's many parallel raw calls (the start-up probe of special tokens, a prompt's
 * segments) each added one, and past ten Node printed MaxListenersExceededWarning, which operators read
 * as a leak.
 */
import { BackendError } from "./types.js";

/** What a request can be cancelled by (the Watchdog, for http-post.ts). */
export interface Cancel {
  readonly aborted: boolean;
  /** Calls `onAbort` once when cancelled; the function returned stops listening. */
  listen(onAbort: () => void): () => void;
}

/** What a backend request is cancelled by from outside: a Cancel that also gives an AbortSignal (for fetch). */
export interface CancelSource extends Cancel {
  readonly signal: AbortSignal;
}

/** An AbortSignal as a CancelSource. */
export function signalSource(signal: AbortSignal): CancelSource {
  return {
    get aborted() {
      return signal.aborted;
    },
    signal,
    listen(onAbort) {
      signal.addEventListener("abort", onAbort, { once: true });
      return () => signal.removeEventListener("abort", onAbort);
    },
  };
}

export class Watchdog implements Cancel {
  private timer: NodeJS.Timeout | undefined;
  private timedOut = false;
  /** Cancelled from here (timer or abort()), not by the caller's signal. */
  private cancelled = false;
  private readonly hooks = new Set<() => void>();
  private controller: AbortController | undefined;
  private joined: AbortSignal | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly outer: CancelSource,
  ) {
    this.reset();
  }

  get aborted(): boolean {
    return this.cancelled || this.outer.aborted;
  }

  /** An AbortSignal that fires with this watch (for fetch). */
  get signal(): AbortSignal {
    if (this.joined === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort();
      this.joined = AbortSignal.any([this.outer.signal, this.controller.signal]);
    }
    return this.joined;
  }

  listen(onAbort: () => void): () => void {
    let called = false;
    const once = (): void => {
      if (called) return;
      called = true;
      stop();
      onAbort();
    };
    this.hooks.add(once);
    const unlisten = this.outer.listen(once);
    const stop = (): void => {
      this.hooks.delete(once);
      unlisten();
    };
    return stop;
  }

  /** The backend answered (a chunk came): the idle timer starts again. */
  reset(): void {
    if (this.aborted) return;
    if (this.timer !== undefined) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.abort();
    }, this.timeoutMs);
  }

  abort(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.stop();
    this.controller?.abort();
    for (const hook of [...this.hooks]) hook();
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A BackendError for what went wrong: the timeout, the backend's own error, or a network failure. */
  explain(err: unknown, context: string): BackendError {
    if (this.timedOut) return new BackendError(`the backend did not answer within ${this.timeoutMs} ms`, 504);
    if (err instanceof BackendError) return err;
    if (this.outer.aborted) return new BackendError("the request was cancelled by the client");
    return new BackendError(`${context}: ${networkMessage(err)}`);
  }
}

/**
 * fetch says only "fetch failed": its cause (ECONNREFUSED 127.0.0.1:9, ...) is what helps. Node's http
 * client gives the system error itself, whose code is shown when its message lacks it ("socket hang up").
 */
function networkMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: unknown }).cause;
  const error = cause instanceof Error ? cause : err;
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === "string" && !error.message.includes(code) ? `${code} ${error.message}` : error.message;
}
