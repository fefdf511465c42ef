/**
 * The contract between the server and a raw completion backend. A backend kind is a small declarative
 * protocol (where to POST, the body to send, how to read one JSON answer or stream event); the
 * transport (transport.ts) does the HTTP, framing, timeouts and errors the same way for all of them.
 */
export type BackendKind = "llamacpp" | "openai" | "ollama";

export const BACKEND_KINDS: readonly BackendKind[] = ["llamacpp", "openai", "ollama"];

/** Sampling settings taken from the client's request, in backend-neutral form. */
export interface Sampling {
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  seed?: number;
}

/** Everything a protocol needs to build one backend request. */
export interface BackendCall {
  prompt: string;
  sampling: Sampling;
  stream: boolean;
  /** The model name the backend knows (required by openai and ollama backends). */
  model: string | undefined;
  /** A constraint grammar (GBNF) for backends that take one (llamacpp). */
  grammar: string | undefined;
  /** Marker strings the backend must print rather than swallow as special tokens (llamacpp). */
  preservedTokens: readonly string[];
}

export type StopReason = "stop" | "length";

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** What one backend answer or stream event says: new text, and (at the end) why it stopped and counts. */
export interface BackendPiece {
  text: string;
  stop?: StopReason;
  usage?: TokenUsage;
}

export interface BackendProtocol {
  kind: BackendKind;
  /** The backend cannot answer without a model name. */
  needsModel: boolean;
  /** How a streamed answer is framed: Server-Sent Events or one JSON object per line. */
  framing: "sse" | "ndjson";
  request(call: BackendCall): { path: string; body: Record<string, unknown> };
  /**
   * Reads a whole answer or one stream event (the same shape for these backends). Throws
   * BackendError when the backend reports an error inside a 200 answer or mid-stream.
   */
  read(json: unknown): BackendPiece;
}

/** The backend failed: unreachable, an error status, an error inside its stream, or a malformed answer. */
export class BackendError extends Error {
  /** 502 for a failed backend, 504 when it did not answer in time. */
  readonly status: 502 | 504;
  constructor(message: string, status: 502 | 504 = 502) {
    super(message);
    this.name = "BackendError";
    this.status = status;
  }
}
