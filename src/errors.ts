/**
 * Every error chatwire throws on purpose is a ChatwireError with a stable `code`, and where it is about
 * a request field or a template position, the `field` (a JSON path such as `messages[2].tool_call_id`)
 * or `position` it names. The CLI prints `code: message` on one line and exits 2.
 */
export type ChatwireErrorCode =
  | "invalid_request" // the request body is malformed (names `field`)
  | "invalid_template" // the template source cannot be loaded or parsed (names `position` when known)
  | "template_error" // the template itself raised (raise_exception) or failed at render time
  | "limit_exceeded" // a render or parse limit (steps, output size, recursion, input size) was hit
  | "unknown_format" // a format id that is not registered
  | "invalid_format" // a format description that the engine cannot compile (names the bad pattern)
  | "io_error" // a file could not be read
  | "missing_dependency"; // an optional package (@huggingface/tokenizers) is not installed

export class ChatwireError extends Error {
  readonly code: ChatwireErrorCode;
  readonly field?: string;
  readonly position?: number;
  constructor(code: ChatwireErrorCode, message: string, where: { field?: string; position?: number } = {}) {
    super(message);
    this.name = "ChatwireError";
    this.code = code;
    if (where.field !== undefined) this.field = where.field;
    if (where.position !== undefined) this.position = where.position;
  }
}

/** A request that does not have the shape of a Chat Completions or Responses body. */
export function invalidRequest(field: string, message: string): ChatwireError {
  return new ChatwireError("invalid_request", `${field}: ${message}`, { field });
}
