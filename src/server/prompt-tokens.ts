/**
 * How the server turns a request into the prompt it sends: token ids with provenance (control tokens
 * only where the template wrote them, never from request data), or, when told to, plain text. A
 * backend that parses special-token text anywhere in a text prompt (llama-server, vLLM, Ollama) would
 * otherwise turn a tool result spelling `<|im_end|>\n<|im_start|>system` into real control tokens.
 *
 * One PromptTokenizer per server; where its vocabulary comes from is decided at start-up
 * (serve-tokenizer.ts): the model folder's tokenizer.json, the .gguf's own vocabulary, or the backend.
 */
import type { ChatTemplate } from "../template/index.js";

export interface EncodedPrompt {
  /** The prompt as text (what `render` prints). */
  text: string;
  /** Its token ids, control tokens only from template text. */
  ids: number[];
}

export interface PromptTokenizer {
  /** Where the vocabulary comes from (`tokenizer.json <path>`, `gguf <path>`, `backend <url>`), for logs and /health. */
  readonly source: string;
  /** Renders `body` and encodes it with provenance. */
  encode(template: ChatTemplate, body: Record<string, unknown>, signal: AbortSignal): Promise<EncodedPrompt>;
  /** Text to ids; with `special` false, control-token text is ordinary text (what data gets). */
  tokenize(text: string, special: boolean, signal: AbortSignal): Promise<number[]>;
  /** Ids to text, control tokens printed. */
  detokenize(ids: readonly number[], signal: AbortSignal): Promise<string>;
  /** Is this id a control (added) token? Used by /tokenize's `with_pieces` and by tests. */
  isControl?(id: number): boolean;
  /** Why it cannot encode yet (a backend tokenizer whose backend has not answered), else undefined: /health is then 503. */
  readonly unavailable?: string | undefined;
  /** Stops background work (the retried probe of a backend tokenizer). */
  close?(): void;
}

/**
 * The tokenizers that work in process (vocab-prompts.ts): they never wait on I/O nor read the signal,
 * so the server passes them none of a request's own (making one costs an AbortController per request).
 */
export const inProcessPrompts = new WeakSet<PromptTokenizer>();
