/**
 * The cancel of one client request: fired when the client goes away before its answer is complete,
 * and the backend request stops with it. A plain flag and a set of listeners: an AbortController per
 * request (Node's AbortSignal is an EventTarget, made on the first read of `.signal`), with the abort
 * listener the backend request added and removed, and the brand-checked `aborted` getter read at every
 * timer reset, was about 3% of a served request's CPU. An AbortSignal is made only when asked for
 * (fetch, a backend tokenizer), and fires with this.
 */
import type { CancelSource } from "./backends/watchdog.js";

export class ClientGone implements CancelSource {
  aborted = false;
  private hooks: Set<() => void> | undefined;
  private controller: AbortController | undefined;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** Each listener runs at most once: fire() takes the set before it calls them (a listener given twice is one, as with addEventListener). */
  listen(onAbort: () => void): () => void {
    (this.hooks ??= new Set()).add(onAbort);
    return () => void this.hooks?.delete(onAbort);
  }

  fire(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.controller?.abort();
    const hooks = this.hooks;
    this.hooks = undefined;
    if (hooks !== undefined) for (const hook of hooks) hook();
  }
}

/** An in-process step that never waits (a tokenizer.json encode) takes this instead of the client's signal. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;
