/** One client request as the handlers see it, and what the access log reports about it. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ClientGone } from "./client-gone.js";

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** Fired when the client goes away before the answer is complete (the backend request stops too). */
  gone: ClientGone;
  /** `gone` as an AbortSignal, made on first read (for fetch and other AbortSignal takers). */
  readonly signal: AbortSignal;
  /**
   * The JSON body's text while the request is being read and checked, so an error about a field
   * can say where it is (line:column); dropped once the generation starts.
   */
  bodyText?: string | undefined;
  /** Token counts for the access log, when the backend reported them. */
  usage?: { prompt_tokens: number; completion_tokens: number };
}
