/**
 * The declarative response template of transformers 5.x (`response_template` in tokenizer_config.json,
 * read by `tokenizer.parse_response` and `transformers serve`): which regions of a completion hold the
 * thinking, the content and the tool calls, how each is delimited, and how its text is parsed. The
 * shapes here are the JSON ones, after validation (validate.ts); docs/response-templates.md.
 */

/** A literal anchor: one string, or alternatives (any of them matches). */
export type LiteralAnchor = string | readonly string[];

/** The content parsers transformers has (`content` of a field). */
export const CONTENT_PARSERS = ["text", "int", "float", "bool", "json", "xml-inline", "kv-lines"] as const;
export type ContentParser = (typeof CONTENT_PARSERS)[number];

/** A JSON value, as a config holds it. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export interface ResponseTemplateField {
  open?: LiteralAnchor;
  /** A Python `regex` pattern (DOTALL); its named groups reach the output through `transform`. */
  open_pattern?: string;
  close?: LiteralAnchor;
  close_pattern?: string;
  /** Default `text`. */
  content?: ContentParser;
  content_args?: { readonly [key: string]: JsonValue };
  /**
   * Every match is kept (a list, or one string with `join`); otherwise the last match wins. Read with
   * Python truthiness, as transformers does (validate.ts `truthy`).
   */
  repeats?: JsonValue;
  join?: string;
  /** Default true; a required field missing from the output makes transformers raise. */
  optional?: JsonValue;
  /** The output's shape: `{name}` placeholders are regex captures, `{content}` the parsed body. */
  transform?: JsonValue;
  /** The parsed body is a list and `transform` applies to each element. */
  transform_each?: boolean;
}

export interface ResponseTemplate {
  version?: 1;
  /** Keys every parsed message starts with (`{"role": "assistant"}`). */
  defaults?: { readonly [key: string]: JsonValue };
  /** Where the assistant message starts in the prompt: the parser reads the prompt after its last match. */
  start_anchor?: LiteralAnchor;
  start_anchor_pattern?: string;
  /** Output key -> how to find it. At most one field has no open anchor: the implicit (leftover) field. */
  fields: { readonly [name: string]: ResponseTemplateField };
}

/**
 * The older generation (`response_schema`): a JSON Schema annotated with `x-regex`, `x-regex-iterator`,
 * `x-parser`, ... transformers 5.x drops it when it loads a tokenizer; chatwire keeps it as data, to
 * report, and does not compile it.
 */
export type ResponseSchema = { readonly [key: string]: JsonValue };
