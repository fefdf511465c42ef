/**
 * A tool-call format is data, not code: the markers a model family writes, which parts of the output
 * are reasoning, where calls sit, and which payload decoder reads a call. The parse engine
 * (src/parse/engine.ts) is one incremental marker lexer + state machine driven by these descriptions,
 * so adding a family means writing one of these objects (see docs/parsing.md).
 */
import type { DecoderFactory } from "../parse/decoder.js";

/** Every registered format id (formats.md lists what each family writes). */
export type FormatId =
  | "hermes"
  | "qwen3-coder"
  | "llama3-json"
  | "pythonic"
  | "lfm2"
  | "tagged-pythonic"
  | "mistral"
  | "deepseek-r1"
  | "deepseek-v3.1"
  | "deepseek-v3.2"
  | "glm-4.5"
  | "kimi-k2"
  | "harmony"
  | "minimax-m2"
  | "seed-oss"
  | "granite"
  | "command-r7b"
  | "functionary-v3.1"
  | "functionary-v3.2"
  | "firefunction-v2"
  | "phi4-mini"
  | "nemotron-v2"
  | "apertus"
  | "apriel"
  | "gigachat3"
  | "gemma4"
  | "json-block";

/**
 * How a template's source gives the family away. The format matches when, for at least one group in
 * `anyOf`, every substring of the group occurs in the source, and no substring of `noneOf` occurs.
 * The registry tries formats in its detection order (most specific first), so a group only has to
 * separate its family from the families after it.
 */
export interface Detection {
  anyOf: readonly (readonly string[])[];
  noneOf?: readonly string[];
}

/** A reasoning block: text between a start and an end marker goes to `reasoning_content`. */
export interface ReasoningMarkers {
  /** Alternative spellings of the opening marker. */
  start: readonly string[];
  /** Alternative spellings of the closing marker. */
  end: readonly string[];
}

/**
 * Where calls sit: a region from a start marker to an end marker (or to where the payload ends by
 * itself), whose inner text is fed to a payload decoder.
 */
export interface CallRegion {
  /** Alternative spellings of the start marker. */
  start: readonly string[];
  /**
   * Alternative spellings of the end marker. Without end markers the region ends when the decoder
   * reports the payload complete (a `close` event: a JSON value that closed its last bracket), or at
   * the end of the output.
   */
  end?: readonly string[];
  /**
   * The start marker is also the beginning of the payload, so the decoder sees it: `true` for all of
   * it (llama3 `{`, Qwen3.5 `<function=` written without `<tool_call>`), a number for its last N
   * characters (`functools[`: the `[` opens the JSON array).
   */
  startInPayload?: boolean | number;
  /** The region may only open at the very start of the output (after whitespace): llama3's bare JSON. */
  atStartOnly?: boolean;
  /**
   * When the region turns out not to hold a call at all (the decoder fails before naming one), its
   * text is plain content and no error is reported: a `{` in prose, a JSON code block that is data.
   */
  quietIfNotCall?: boolean;
  decoder: DecoderFactory;
}

/**
 * Markers that wrap a group of calls (DeepSeek `<｜tool▁calls▁begin｜>`, Kimi
 * `<|tool_calls_section_begin|>`). Inside a section only call regions and the end marker matter;
 * whitespace between calls is dropped. Models sometimes omit the section markers, so regions also
 * open outside sections.
 */
export interface CallSection {
  start: readonly string[];
  end: readonly string[];
}

/** Where a channel message's body goes, decided from its header text. */
export type ChannelRoute =
  | { to: "content" }
  | { to: "reasoning" }
  | { to: "call"; name: string }
  /** The body is dropped (for example a message to a non-function recipient that is not ours). */
  | { to: "drop" };

/**
 * Channel formats (harmony, functionary v3.2) write a sequence of messages, each a header then a
 * body. The header text (everything between a header start and a header end marker, other markers
 * included) is routed by `route`; a call body is fed to `callDecoder` under the routed name.
 * A body ends at a body end marker or at the next header start.
 */
export interface ChannelSyntax {
  headerStart: readonly string[];
  headerEnd: readonly string[];
  bodyEnd: readonly string[];
  route(header: string): ChannelRoute;
  /** Reads a call body (the arguments) for a call whose name came from the header. */
  callDecoder: DecoderFactory;
  /**
   * Without a prompt suffix, the output starts inside a header: the generation prompt always ends
   * with a header start (`<|start|>assistant`, `>>>`).
   */
  startsInHeader?: boolean;
}

/** How call ids are made when the model writes none. */
export type IdStyle =
  /** `call_` + 24 alphanumerics (the default). */
  | "openai"
  /** Exactly 9 alphanumerics: Mistral templates raise on anything else. */
  | "mistral";

export interface FormatDescription {
  id: FormatId;
  /** One line: which models write this. */
  description: string;
  /** Absent: never auto-detected, only chosen by id (json-block). */
  detect?: Detection;
  reasoning?: readonly ReasoningMarkers[];
  regions: readonly CallRegion[];
  sections?: readonly CallSection[];
  channels?: ChannelSyntax;
  /**
   * Markers that carry no text and are dropped wherever they appear outside calls: end-of-turn tokens
   * (`<|eot_id|>`, `</s>`), answer wrappers (`<|START_RESPONSE|>`, `<response>`).
   */
  ignore?: readonly string[];
  idStyle?: IdStyle;
}
