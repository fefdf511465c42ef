/**
 * The report of `chatwire check` (and `checkTemplate`), a documented, stable shape (docs/check.md):
 * what the template is, one entry per conversation of the battery, and the findings.
 */

/** `error`: a check failed (exit code 1). `warning`: worth knowing, exit 0. `info`: an observation. */
export type Severity = "error" | "warning" | "info";

/** The check a finding comes from. */
export type CheckId =
  | "renders"
  | "prefix"
  | "reconstruction"
  | "tool-results"
  | "tool-list"
  | "history-reasoning"
  | "history-tool-calls"
  | "none-printed"
  | "empty-assistant-turn"
  | "special-tokens"
  | "bos"
  | "token-boundary"
  | "determinism"
  | "clock"
  | "reference"
  | "response-template";

export interface Finding {
  check: CheckId;
  severity: Severity;
  /** The battery conversation it is about, when there is one. */
  conversation?: string;
  message: string;
  /** The bytes involved: an offset into the rendered prompt and the text around it (and what was expected). */
  bytes?: { offset?: number; context: string; expected?: string };
}

export interface ConversationResult {
  name: string;
  /** The rendered prompt's length in characters, or undefined when the template raised. */
  chars?: number;
  /** The template's (or chatwire's) error message when it raised. */
  error?: string;
}

export interface CheckReport {
  /** Report format version: bumped when a field changes meaning. */
  version: 1;
  template: {
    origin: string;
    /** Detected (or forced) tool-call format id; undefined when the template shows none. */
    format?: string;
    /** What the tool polyfill does for a request with tools (the sentence `detect` prints too); absent when the template shows tools itself. */
    polyfill?: { definitions: boolean; jsonBlock: boolean; note: string };
    caps: {
      supportsTools: boolean;
      supportsSystem: boolean;
      readsContentParts: boolean;
      variables: string[];
      reasoning?: { start: readonly string[]; end: readonly string[] };
    };
  };
  conversations: ConversationResult[];
  findings: Finding[];
  summary: { errors: number; warnings: number; infos: number; checks: CheckId[] };
}
