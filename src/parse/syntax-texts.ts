/**
 * The literal text a format's call syntax is written in, read from its description: tag patterns
 * without their holes, close tags, header ends, token prefixes, channel rule literals. This is the
 * text a valid call's markup consists of, so it may vanish from the output (docs/parsing.md, "Text:
 * never lost"); the fuzz suite's lost-text check reads it from here, so a new family needs no list.
 */
import { TYPE_NAMES } from "./decoders/xml-calls.js";
import type { ChannelRule, FormatDescription, Payload } from "./language.js";
import { literalDialect } from "./literal/dialects.js";
import { onPayload, type PayloadTable } from "./payload-kinds.js";

/** The text runs of a pattern between its holes: `<invoke name="{name}">` gives `<invoke name="`, `">`. */
function patternPieces(pattern: string): string[] {
  return pattern
    .replace(/\\(.)/g, "$1")
    .split(/\{[A-Za-z_]+\}|[[\]]/)
    .filter((p) => p !== "");
}

/** The literal texts of each payload kind's syntax. */
const PAYLOAD_TEXTS: PayloadTable<readonly string[]> = {
  "json-calls": (p) => [...(p.nameKeys ?? []), ...(p.argsKeys ?? []), ...(p.idKeys ?? [])],
  "json-args": () => [],
  "python-tag": () => [],
  "header-args": (p) => [...p.header.flatMap(patternPieces), ...p.headerEnd],
  tagged: (p) => {
    const out: string[] = [];
    if (p.call) out.push(...p.call.open.flatMap(patternPieces), p.call.close);
    if (p.nameSep !== undefined) out.push(p.nameSep);
    if ("key" in p.params) out.push(p.params.key.open, p.params.key.close, p.params.value.open, p.params.value.close);
    else out.push(...p.params.open.flatMap(patternPieces), p.params.close);
    out.push(...(p.afterParam ?? []), ...(p.implicitEnds ?? []).map((e) => e.tag));
    if (p.cdata) out.push("<![CDATA[", "]]>");
    return out;
  },
  "xml-calls": (p) => {
    const out: string[] = [...p.open, ...p.close, p.call.element, p.itemTag];
    if (p.params.by === "attribute") {
      out.push(p.params.element, p.params.key);
      if (p.params.type !== undefined) out.push(p.params.type, ...TYPE_NAMES);
    }
    if (p.jsonElement !== undefined) out.push(p.jsonElement);
    out.push(...p.call.head.flatMap(patternPieces));
    return out;
  },
  // The dialect's string quote tokens (FunctionGemma's `<escape>`) are markup too.
  "literal-calls": (p) => [...(p.namePrefix !== undefined ? [p.namePrefix] : []), ...literalDialect(p.dialect).strings.map((q) => q.quote)],
  "python-or-json": (p) => payloadTexts(p.json),
  "by-first-char": (p) => [...Object.values(p.cases).flatMap(payloadTexts), ...payloadTexts(p.otherwise)],
};

function payloadTexts(p: Payload): readonly string[] {
  return onPayload(PAYLOAD_TEXTS, p);
}

function ruleText(r: ChannelRule): string {
  return "find" in r ? r.find : "start" in r ? r.start : r.whole;
}

/** Every literal text of the format's call syntax (markers are listed by the description itself). */
export function syntaxTexts(format: FormatDescription): string[] {
  const out: string[] = [];
  for (const r of format.regions) out.push(...payloadTexts(r.payload));
  if (format.channels) {
    out.push(...payloadTexts(format.channels.callPayload));
    for (const r of format.channels.rules) out.push(...patternPieces(ruleText(r)));
    for (const h of format.channels.headers) out.push(...patternPieces(h));
  }
  out.push(...(format.pseudoTools ?? []));
  return [...new Set(out.filter((t) => t.trim() !== ""))];
}
