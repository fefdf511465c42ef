import type { StructuralTag } from "../../grammar/index.js";

/**
 * The contract between the server and a raw completion backend. A backend kind is a small declarative
 * protocol (where to POST, the body to send, how to read one JSON answer or stream event); the
 * transport (transport.ts) does the HTTP, framing, timeouts and errors the same way for all of them.
 */
export type BackendKind = "llamacpp" | "openai" | "vllm" | "sglang" | "ollama";

export const BACKEND_KINDS: readonly BackendKind[] = ["llamacpp", "openai", "vllm", "sglang", "ollama"];

/**
 * What generation is constrained to: a GBNF grammar over the whole output (the tool-call grammar of
 * src/grammar), a lazy one (free output until a trigger, llama.cpp's `grammar_lazy`), a structural tag
 * (xgrammar's: free output, JSON arguments inside tagged spans), a JSON Schema (`response_format:
 * json_schema`) or any JSON object (`response_format: json_object`). Each protocol puts it in its own
 * engine's field, or drops it when it has none.
 */
export type Constraint =
  | { kind: "gbnf"; grammar: string }
  | { kind: "lazy_gbnf"; grammar: string; triggers: readonly GrammarTrigger[] }
  | { kind: "structural_tag"; tag: StructuralTag }
  | { kind: "json_schema"; schema: Record<string, unknown> }
  | { kind: "json_object" };

/**
 * What starts a lazy grammar: a marker's text, with its id when it is one token of the model's
 * vocabulary, or a pattern the whole output so far must match (the grammar takes over at its first
 * capture).
 */
export type GrammarTrigger = { kind: "word"; text: string; token?: number } | { kind: "pattern-full"; pattern: string };

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
  /** Text, or token ids with provenance (control tokens only where the template wrote them). */
  prompt: string | readonly number[];
  sampling: Sampling;
  stream: boolean;
  /** The model name the backend knows (required by openai and ollama backends). */
  model: string | undefined;
  /** What generation is constrained to, for backends with a field for it. */
  constraint: Constraint | undefined;
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
  /** The backend takes a prompt of token ids (Ollama takes text only). */
  acceptsIds: boolean;
  /** Which constraints the backend has a field for (others are not sent). */
  constraints: readonly Constraint["kind"][];
  /** How a streamed answer is framed: Server-Sent Events or one JSON object per line. */
  framing: "sse" | "ndjson";
  request(call: BackendCall): { path: string; body: Record<string, unknown> };
  /**
   * Reads a whole answer or one stream event (the same shape for these backends). Throws
   * BackendError when the backend reports an error inside a 200 answer or mid-stream, or sends JSON of
   * another shape. A piece with `stop` set is the answer's last (the stream must reach one).
   */
  read(json: unknown): BackendPiece;
}

/** The backend failed: unreachable, an error status, an error inside its stream, or a malformed answer. */
export class BackendError extends Error {
  /** 502 for a failed backend, 503 while it has not answered yet (server started first), 504 when it did not answer in time. */
  readonly status: 502 | 503 | 504;
  constructor(message: string, status: 502 | 503 | 504 = 502) {
    super(message);
    this.name = "BackendError";
    this.status = status;
  }
}
