/**
 * The OpenAI-shaped types chatwire reads and writes. Input types are permissive (extra fields pass
 * through to the template); output types are exact.
 */
import type { Tolerance } from "./parse/language.js";

export type JsonSchema = { [key: string]: unknown };

export interface FunctionDefinition {
  name: string;
  description?: string;
  parameters?: JsonSchema;
  strict?: boolean;
  [key: string]: unknown;
}

/** A Chat Completions tool. */
export interface FunctionTool {
  type: "function";
  function: FunctionDefinition;
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface ChatMessage {
  role: string;
  content?: string | ContentPart[] | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  reasoning_content?: string;
  [key: string]: unknown;
}

export type ToolChoice =
  | "none"
  | "auto"
  | "required"
  | { type: "function"; function: { name: string } }
  | { type: "function"; name: string };

/** A Chat Completions request body (only the fields chatwire reads are typed). */
export interface ChatRequest {
  messages: ChatMessage[];
  tools?: FunctionTool[];
  tool_choice?: ToolChoice;
  [key: string]: unknown;
}

/** A Responses API input item (the kinds chatwire understands). */
export type ResponsesItem =
  | { type?: "message"; role: string; content: string | ContentPart[]; [key: string]: unknown }
  | { type: "function_call"; call_id: string; name: string; arguments: string; id?: string; [key: string]: unknown }
  | { type: "function_call_output"; call_id: string; output: string | ContentPart[]; [key: string]: unknown }
  | { type: "reasoning"; summary?: ContentPart[]; content?: ContentPart[]; [key: string]: unknown };

/** A Responses API tool: flat, `{type: "function", name, parameters, strict}`. */
export interface ResponsesFunctionTool {
  type: "function";
  name: string;
  description?: string;
  parameters?: JsonSchema;
  strict?: boolean;
}

export interface ResponsesRequest {
  input: string | ResponsesItem[];
  instructions?: string;
  tools?: ResponsesFunctionTool[];
  tool_choice?: ToolChoice;
  [key: string]: unknown;
}

export type AnyRequest = ChatRequest | ResponsesRequest;

/**
 * The request parameter of `render` and `normalize` (`request: R & RequestInput<R>`). A typed value or object
 * literal must have `messages` (an array: Chat Completions) or `input` (a string or array:
 * Responses), so `render({ mesages: [] })` is a compile error; the rest is checked at run time
 * (untyped literals widen `"function"` to string, so demanding AnyRequest exactly would reject
 * ordinary code). A value typed `unknown` or `Record<string, unknown>` (JSON just read) is accepted
 * and validated at run time, with a ChatwireError naming the field. Annotate with ChatRequest or
 * ResponsesRequest to have every field checked. (`parse` takes any object with the request's `tools`
 * and `tool_choice`, messages not needed, so its request stays `unknown`, checked at run time.)
 */
export type RequestInput<R> = unknown extends R ? unknown : string extends keyof R ? unknown : R extends RequestShape ? unknown : AnyRequest;

type RequestShape = { messages: readonly unknown[] } | { input: string | readonly unknown[] };

/** What a parse returns as the assistant turn. */
export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  reasoning_content?: string;
  tool_calls?: ToolCall[];
}

export type FinishReason = "stop" | "tool_calls" | "length";

/** What kind of deviation a `repaired` issue repaired (the tolerance kinds of the format language). */
export type RepairKind = Tolerance["kind"];

/**
 * Something in the completion that did not become a valid tool call. Its `text` is the model's text
 * for it, which is also kept in `content` (or reasoning); nothing is lost.
 *
 * Or (`type: "repaired"`) a deviation from the format's own syntax that was read as what the model
 * meant (docs/parsing.md, "What we repair"): `repair` says which kind, `text` is the model's text that
 * the repair consumed or reinterpreted (it is not in content), `call` the call it belongs to.
 */
export interface ParseIssue {
  type: "unknown_tool" | "invalid_arguments" | "malformed" | "truncated" | "tool_choice" | "repaired";
  message: string;
  /** `repaired` only: the repair kind. */
  repair?: RepairKind;
  /**
   * `repaired` only: the call the repair belongs to. In a stream, its `tool_calls[].index`; in a
   * one-shot or folded result, its position in `message.tool_calls`. (Not `index`: that names a
   * streamed call the client must drop.)
   */
  call?: number;
  /** The tool name the model wrote, when it got that far. */
  name?: string;
  /** The model's text for the failed call. */
  text: string;
  /** Streaming only: the `tool_calls[].index` of an already-streamed call that the client must drop. */
  index?: number;
  /** ajv's error objects for `invalid_arguments`. */
  details?: unknown[];
}

export interface ParseResult {
  message: AssistantMessage;
  finish_reason: FinishReason;
  errors: ParseIssue[];
}

export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: "function";
  function: { name?: string; arguments?: string };
}

/** An OpenAI `chat.completion.chunk` `choices[0].delta`, plus `finish_reason`/`errors` on the last one. */
export interface Delta {
  content?: string;
  reasoning_content?: string;
  tool_calls?: ToolCallDelta[];
  finish_reason?: FinishReason;
  errors?: ParseIssue[];
}

/** A streaming parse. `push` and `end` are methods: call them on the parser (or bind them to it). */
export interface StreamParser {
  push(delta: string): Delta[];
  end(): Delta[];
}
