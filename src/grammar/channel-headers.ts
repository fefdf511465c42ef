/**
 * The header a channel message is written with, so that the parser's own router (compile-format.ts)
 * sends its body where the grammar means it: the format's header patterns in their order, filled in
 * (the tool's name in `{name}`, optional parts left out), kept only when `protocol` accepts the text
 * and `route` reads it back as that target. A family lists the headers its template writes first
 * (Glimmer's `assistant to=self`, `assistant to=user`, `assistant to={name}`), so those are written.
 */
import type { FormatDescription } from "../formats/types.js";
import { compileFormat } from "../parse/compile-format.js";
import { fillPattern } from "./pattern-gbnf.js";

/** Where a header sends the body: text to content or reasoning, or a call of `name` (a `call` or `calls` route). */
export type HeaderTarget = { to: "content" } | { to: "reasoning" } | { to: "call"; name: string };

/** A name no tool has: a text header must route to its target for any request. */
const NO_TOOL = "\u0000";

/**
 * The header texts the router reads back as the target, in the format's order (none: the format
 * cannot write it, as for a tool named `all` in functionary v3.2, whose header is the content one).
 */
export function headersFor(format: FormatDescription, target: HeaderTarget): string[] {
  const router = compileFormat(format).channels!;
  const name = target.to === "call" ? target.name : NO_TOOL;
  const out: string[] = [];
  for (const text of new Set(format.channels!.headers.map((p) => fillPattern(p, { name })))) {
    // An empty header (`>>>\n`) is left out: a model writes the header its template writes.
    if (text === "" || (target.to !== "call" && text.includes(NO_TOOL)) || !router.protocol(text)) continue;
    const route = router.route(text);
    if (target.to === "call" ? (route.to === "call" || route.to === "calls") && route.name === target.name : route.to === target.to) out.push(text);
  }
  return out;
}
