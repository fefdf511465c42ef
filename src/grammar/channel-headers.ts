/**
 * The message headers a channel format's grammar writes (channels.ts), and the body ends between and
 * after messages. A header is one of the format's header patterns filled in (the tool's name in
 * `{name}`, optional parts left out), the first in the format's order that the parser itself reads
 * back as the intended target: it is fed to the engine's own header functions (src/parse/channels.ts:
 * headerText, routeHeader) in the state the engine is in there, so a header may hold header start
 * markers (harmony's `assistant<|channel|>analysis` after `<|start|>`) and the first message may
 * continue a header the generation prompt opened (`<|start|>assistant`, then `<|channel|>final`).
 */
import type { FormatDescription } from "../formats/types.js";
import { headerState, headerText, routeHeader, type HeaderState } from "../parse/channels.js";
import { compileFormat } from "../parse/compile-format.js";
import { fillPattern } from "./pattern-gbnf.js";

/** What a message's body is, as the router says it: reasoning, content, or a call to `name`. */
export type MessageTarget = { to: "reasoning" } | { to: "content" } | { to: "call"; name: string };

/**
 * Where a header is written: `next` after a body (the format's first header start marker opens it,
 * and is part of the text returned), or `first`, the output's first message, inside the header the
 * generation prompt opened (`fromPrompt`: what the prompt wrote of it).
 */
export type HeaderPlace = { at: "next" } | { at: "first"; fromPrompt: string };

/** A name no tool has: a header that routes to content or reasoning with it does so for any request. */
export const NO_TOOL = "\u0000";

/**
 * The text to write for a message header to `target` at `place`, up to (not including) the header
 * end marker, or undefined when none of the format's headers is read back as that target there.
 */
export function writtenHeader(format: FormatDescription, target: MessageTarget, place: HeaderPlace): string | undefined {
  const ch = format.channels!;
  const name = target.to === "call" ? target.name : NO_TOOL;
  for (const pattern of ch.headers) {
    const header = fillPattern(pattern, { name });
    if (header === "" || (target.to !== "call" && header.includes(NO_TOOL))) continue;
    const opener = place.at === "next" ? ch.headerStart[0]! : "";
    const fromPrompt = place.at === "first" ? place.fromPrompt : "";
    if (!header.startsWith(fromPrompt)) continue;
    const written = header.slice(fromPrompt.length);
    if (readsAs(format, { opener, fromPrompt, written }, target)) return opener + written;
  }
  return undefined;
}

/**
 * Whether the engine reads a header as `target`: opened by `opener` (a header start marker, or "" for
 * one the prompt opened with `fromPrompt` written of it), then `written`, then the header end.
 */
export function readsAs(format: FormatDescription, header: { opener: string; fromPrompt: string; written: string }, target: MessageTarget): boolean {
  const ch = format.channels!;
  // Markers that end a header (or show it is none) may not sit inside one.
  if ([...ch.headerEnd, ...ch.bodyEnd].some((m) => header.written.includes(m))) return false;
  const st: HeaderState = headerState(header.opener, header.fromPrompt);
  // -1: still a header (no newline, not longer than any header can be).
  if (headerText(st, header.written) !== -1) return false;
  const route = routeHeader(compileFormat(format), st, ch.headerEnd[0]!);
  // A call target is a `call` route (the body is the arguments) or a `calls` one (Glimmer: the body
  // holds the call region, channel-call-bodies.ts).
  if (target.to === "call") return (route.to === "call" || route.to === "calls") && route.name === target.name;
  return route.to === target.to;
}

/** The body ends the grammar writes: between messages, after a call, and after text that ends the output. */
export interface MessageEnds {
  /** After a reasoning or text body that another message follows. */
  message: string;
  /** After a call's arguments, whatever follows. */
  call: string;
  /** After text that ends the output (optional in the grammar: a stop token the engine may leave out). */
  output: string;
  /** After a call that ends the output (optional too; Glimmer's `<|eot|>`, else `call`). */
  callOutput: string;
}

export function messageEnds(format: FormatDescription): MessageEnds {
  const ends = format.channels!.ends ?? {};
  const call = ends.call ?? "";
  return { message: ends.message ?? "", call, output: ends.output ?? "", callOutput: ends.callOutput ?? call };
}

/** Why the format's `ends` cannot be written, or undefined: each must be one of its body ends. */
export function endsLimit(format: FormatDescription): string | undefined {
  const ch = format.channels!;
  const bad = Object.entries(ch.ends ?? {}).find(([, end]) => !ch.bodyEnd.includes(end));
  return bad === undefined ? undefined : `channels.ends.${bad[0]} (${JSON.stringify(bad[1])}) is not one of channels.bodyEnd`;
}
