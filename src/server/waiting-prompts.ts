/**
 * A backend tokenizer for a server started before its backend (compose, Kubernetes and systemd start
 * the proxy first). The vocabulary probe of backend-prompts.ts is tried at once and, while it fails,
 * again with a doubling delay (0.5 s up to 30 s); until it succeeds the tokenizer is `unavailable`
 * (/health answers 503 with the reason) and every request that needs it gets 503
 * `backend_unavailable`. Each change is logged once: the first failure, a different failure, success.
 */
import type { ChatTemplate } from "../template/index.js";
import { backendPrompts } from "./backend-prompts.js";
import type { TransportOptions } from "./backends/transport.js";
import { BackendError } from "./backends/types.js";
import type { PromptTokenizer } from "./prompt-tokens.js";

export interface RetryOptions {
  /** First delay between attempts (default 500 ms), doubled after each failure up to `maxDelayMs` (default 30 s). */
  firstDelayMs?: number;
  maxDelayMs?: number;
  log?: (line: string) => void;
}

export interface WaitingPrompts extends PromptTokenizer {
  /** Settles after the first attempt, whatever its outcome (the CLI then prints what it serves with). */
  readonly firstAttempt: Promise<void>;
}

export function waitingBackendPrompts(template: ChatTemplate, transport: TransportOptions, options: RetryOptions = {}): WaitingPrompts {
  const log = options.log ?? ((): void => {});
  const maxDelay = options.maxDelayMs ?? 30_000;
  const stop = new AbortController();
  let ready: PromptTokenizer | undefined;
  let reason = `the backend ${transport.baseUrl} has not answered the vocabulary probe yet`;
  let reported: string | undefined;
  let timer: NodeJS.Timeout | undefined;

  const attempt = async (delay: number): Promise<void> => {
    try {
      ready = await backendPrompts(template, transport, stop.signal);
      if (reported !== undefined) log(`the backend answered: prompts are sent as token ids from ${ready.source}; /health is ok`);
    } catch (err) {
      if (stop.signal.aborted) return;
      const message = err instanceof Error ? err.message : String(err);
      reason = `the backend is not ready (${message})`;
      if (message !== reported) {
        log(`warning: ${reason}: /health and requests answer 503 until it does; retrying the vocabulary probe (first in ${delay} ms, then up to every ${maxDelay / 1000} s)`);
        reported = message;
      }
      timer = setTimeout(() => void attempt(Math.min(delay * 2, maxDelay)), delay);
      // The retry alone does not keep a process alive (the listening server does).
      timer.unref();
    }
  };
  const firstAttempt = attempt(options.firstDelayMs ?? 500);

  const current = (): PromptTokenizer => {
    if (ready !== undefined) return ready;
    throw new BackendError(reason, 503);
  };
  return {
    firstAttempt,
    get source() {
      return ready?.source ?? `backend ${transport.baseUrl}/tokenize (not reached yet)`;
    },
    get unavailable() {
      return ready === undefined ? reason : undefined;
    },
    encode: (t, body, signal) => current().encode(t, body, signal),
    tokenize: (text, special, signal) => current().tokenize(text, special, signal),
    detokenize: (ids, signal) => current().detokenize(ids, signal),
    isControl: (id) => ready?.isControl?.(id) ?? false,
    close() {
      stop.abort();
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
