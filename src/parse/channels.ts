/**
 * Channel message headers (harmony, functionary v3.2): the engine's header state, what its text may
 * grow to, and where a complete header routes the message body. Pure decisions: the engine
 * (engine.ts) applies them to its state and output.
 */
import type { CompiledFormat } from "./compile-format.js";

/** Longer than any channel message header (harmony's longest is a recipient and a content type). */
const MAX_HEADER = 256;

/** `opener`: the model's header start marker; `fromPrompt`: header text that came from the prompt. */
export interface HeaderState {
  kind: "header";
  text: string[];
  length: number;
  opener: string;
  fromPrompt: string;
}

export function headerState(opener: string, fromPrompt: string): HeaderState {
  return { kind: "header", text: [], length: 0, opener, fromPrompt };
}

/**
 * Adds text to a header. A newline, or more text than a header holds, shows it is not one: then the
 * text up to there is added and that length is returned (what follows is read again as content, so the
 * outcome does not depend on where the stream was cut); -1 while it may still be a header.
 */
export function headerText(st: HeaderState, s: string): number {
  const nl = s.indexOf("\n");
  const room = MAX_HEADER - st.length;
  const cut = Math.min(nl >= 0 ? nl + 1 : Infinity, s.length > room ? Math.max(room, 0) : Infinity);
  if (cut === Infinity) {
    st.text.push(s);
    st.length += s.length;
    return -1;
  }
  st.text.push(s.slice(0, cut));
  return cut;
}

/** Where a complete header sends the message body (`raw`: the header's text, both markers included). */
export type HeaderRoute =
  /** No header the format writes: `text` (what the model wrote of it) is content. */
  | { to: "not-protocol"; text: string }
  | { to: "reasoning" }
  | { to: "content" }
  /** A message to a tool whose body holds the call (a section waiting for a call to `name`). */
  | { to: "calls"; name: string; raw: string }
  /** The body is the arguments of a call to `name`. */
  | { to: "call"; name: string; raw: string };

export function routeHeader(format: CompiledFormat, st: HeaderState, endMarker: string): HeaderRoute {
  const ch = format.channels!;
  const written = st.text.join("");
  // Without a prompt suffix the output starts in the header the generation prompt is assumed to have
  // opened; the output may open it itself (`<|start|>assistant<|channel|>...`, `<|channel|>analysis`).
  const lead = written.trimStart();
  const restart = st.opener === "" && st.fromPrompt === "" ? ch.headerStart.find((h) => lead.startsWith(h)) : undefined;
  const header = restart === undefined ? st.fromPrompt + written : lead.slice(restart.length);
  if (!ch.protocol(header)) return { to: "not-protocol", text: st.opener + written + endMarker };
  const route = ch.route(header);
  switch (route.to) {
    case "reasoning":
      return { to: "reasoning" };
    case "content":
    case "drop":
      return { to: "content" };
    case "calls":
    case "call":
      return { to: route.to, name: route.name, raw: st.opener + written + endMarker };
  }
}

/**
 * Where the output starts, from the end of the rendered prompt: inside a message header when it ends
 * with a header start (`<|start|>assistant`, `>>>`; without a suffix, when the format says so), inside
 * reasoning when the prompt opened a reasoning block it did not close (`<think>\n`), else in content.
 */
export function promptStart(format: CompiledFormat, suffix: string | undefined): HeaderState | "reasoning" | "content" {
  const ch = format.channels;
  if (suffix === undefined) return ch?.startsInHeader ? headerState("", "") : "content";
  const last = (markers: readonly string[] | undefined) =>
    Math.max(-1, ...(markers ?? []).map((m) => {
      const at = suffix.lastIndexOf(m);
      return at < 0 ? -1 : at + m.length;
    }));
  const lastStart = (markers: readonly string[] | undefined) =>
    (markers ?? []).reduce<{ at: number; end: number }>((best, m) => {
      const at = suffix.lastIndexOf(m);
      return at >= 0 && at > best.at ? { at, end: at + m.length } : best;
    }, { at: -1, end: -1 });
  const reasoningOpen = lastStart(format.reasoning?.flatMap((r) => r.start));
  const reasoningClose = last(format.reasoning?.flatMap((r) => r.end));
  if (ch) {
    const header = lastStart(ch.headerStart);
    const closed = Math.max(last(ch.headerEnd), last(ch.bodyEnd));
    if (header.at >= 0 && header.end > closed) return headerState("", suffix.slice(header.end));
  }
  return reasoningOpen.at >= 0 && reasoningOpen.end > reasoningClose ? "reasoning" : "content";
}
