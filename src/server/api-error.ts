/**
 * Errors as OpenAI clients expect them: an HTTP status and `{"error": {message, type, param, code}}`.
 * Every failure the server reports goes through here, so clients (the openai SDKs included) can read
 * which field was wrong (`param`) or that the backend failed (`type: "backend_error"`, status 502/504).
 */
import { ChatwireError } from "../errors.js";
import { placeOfField } from "../request/locate.js";
import { BackendError } from "./backends/types.js";

export type ApiErrorType = "invalid_request_error" | "not_found_error" | "backend_error" | "server_error";

export interface ApiErrorBody {
  /** OpenAI's four fields; `line` and `column` (1-based) too when the error is at a place in the request body's text. */
  error: { message: string; type: ApiErrorType; param: string | null; code: string | null; line?: number; column?: number };
}

/** Where in the request body's text an error is. */
export interface BodyPlace {
  line: number;
  column: number;
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ApiErrorType;
  readonly param: string | null;
  readonly code: string | null;
  readonly place: BodyPlace | undefined;
  constructor(status: number, type: ApiErrorType, message: string, where: { param?: string; code?: string; place?: BodyPlace } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.type = type;
    this.param = where.param ?? null;
    this.code = where.code ?? null;
    this.place = where.place;
  }

  toJSON(): ApiErrorBody {
    const error: ApiErrorBody["error"] = { message: this.message, type: this.type, param: this.param, code: this.code };
    if (this.place !== undefined) {
      error.line = this.place.line;
      error.column = this.place.column;
    }
    return { error };
  }
}

/**
 * The error with where its `param` is in the request body's text (`bodyText`): ` (at line L, column
 * C of the request body)` added to the message and `line`/`column` set. Positions are found only
 * here, by scanning the text again, so a valid request pays nothing for them.
 */
export function placedInBody(err: ApiError, bodyText: string | undefined): ApiError {
  if (err.place !== undefined || err.param === null || bodyText === undefined) return err;
  const place = placeOfField(bodyText, err.param);
  if (place === undefined) return err;
  const where: { param: string; code?: string; place: BodyPlace } = { param: err.param, place };
  if (err.code !== null) where.code = err.code;
  return new ApiError(err.status, err.type, `${err.message} (at line ${place.line}, column ${place.column} of the request body)`, where);
}

/** A 400 about one request field (`param` is its JSON path, e.g. `messages[1].role`). */
export function badRequest(param: string, message: string): ApiError {
  return new ApiError(400, "invalid_request_error", `${param}: ${message}`, { param, code: "invalid_request" });
}

const BACKEND_CODES = { 502: "backend_error", 503: "backend_unavailable", 504: "backend_timeout" } as const;

/**
 * Anything thrown while handling a request, as an ApiError. A failed backend is 502 (504 when it did
 * not answer in time) with the backend's own message. Request and template problems are the
 * caller's (400): a malformed body, a template that raises on this conversation (roles must alternate,
 * ...), or a limit the request pushed past. Anything else is ours (500), reported without a stack.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof BackendError) return new ApiError(err.status, "backend_error", err.message, { code: BACKEND_CODES[err.status] });
  if (err instanceof ChatwireError) {
    const where: { param?: string; code: string } = { code: err.code };
    if (err.field !== undefined) where.param = err.field;
    if (err.code === "invalid_request" || err.code === "template_error" || err.code === "limit_exceeded") {
      return new ApiError(400, "invalid_request_error", err.message, where);
    }
    return new ApiError(500, "server_error", err.message, where);
  }
  return new ApiError(500, "server_error", `internal error: ${err instanceof Error ? err.message : String(err)}`);
}
