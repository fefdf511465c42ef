/**
 * The header a channel message is written with, so that the parser's own router (compile-format.ts)
 * sends its body where the grammar means it: the format's routing rules and header patterns filled in
 * (the tool's name in `{name}`, each optional part in or out), kept only when `protocol` accepts the
 * text and `route` reads it back as that target. The rules for the target come first, so the header
 * is the spelling its rule names (Glimmer's `assistant to=user`, not the bare `assistant` its header
 * pattern also allows), with more optional parts in before fewer.
 */
import type { FormatDescription } from "../formats/types.js";
import { compileFormat } from "../parse/compile-format.js";
import type { ChannelRule } from "../parse/language.js";
import { fillPatternVariants } from "./pattern-gbnf.js";

/** Where a header sends the body: text to content or reasoning, or a call of `name` (a `call` or `calls` route). */
export type HeaderTarget = { to: "content" } | { to: "reasoning" } | { to: "call"; name: string };

/** A header for the target: its text, and its kind of call route (`call`: JSON arguments; `calls`: a body holding call regions). */
export interface TargetHeader {
  text: string;
  route: "content" | "reasoning" | "call" | "calls";
}

/** A name no tool has: a text header must route to its target for any request. */
const NO_TOOL = "\u0000";

function rulePattern(rule: ChannelRule): string {
  return "whole" in rule ? rule.whole : "start" in rule ? rule.start : rule.find;
}

/**
 * The headers the router reads back as the target, best first (none: the format cannot write it, as
 * for a tool named `all` in functionary v3.2, whose header is the content one).
 */
export function headersFor(format: FormatDescription, target: HeaderTarget): TargetHeader[] {
  const ch = format.channels!;
  const router = compileFormat(format).channels!;
  const name = target.to === "call" ? target.name : NO_TOOL;
  const wanted = (to: ChannelRule["to"]): boolean => (target.to === "call" ? to === "call" || to === "calls" : to === target.to);
  const patterns = [...ch.rules.filter((r) => wanted(r.to)).map(rulePattern), ...ch.headers];
  const out: TargetHeader[] = [];
  for (const text of new Set(patterns.flatMap((p) => fillPatternVariants(p, { name })))) {
    // An empty header (`>>>\n`) is left out: a model writes the header its template writes.
    if (text === "" || (target.to !== "call" && text.includes(NO_TOOL)) || !router.protocol(text)) continue;
    const route = router.route(text);
    if (route.to === "drop") continue;
    if (target.to === "call" ? (route.to === "call" || route.to === "calls") && route.name === target.name : route.to === target.to) {
      out.push({ text, route: route.to });
    }
  }
  return out;
}
