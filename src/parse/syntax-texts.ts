/**
 * The literal text a format's call syntax is written in, read from its description: tag patterns
 * without their holes, close tags, header ends, token prefixes, channel rule literals. This is the
 * text a valid call's markup consists of, so it may vanish from the output (docs/parsing.md, "Text:
 * never lost"); the fuzz suite's lost-text check reads it from here, so a new family needs no list.
 */
import { TYPE_NAMES } from "./decoders/xml-calls.js";
import type { ChannelRule, FormatDescription, Payload } from "./language.js";
import { literalDialect } from "./literal/dialects.js";

/** Literal pieces of a pattern: `<invoke name="{name}">` gives `<invoke name="`, `">`. */
function patternLiterals(pattern: string): string[] {
  return pattern
    .replace(/\\(.)/g, "$1")
    .split(/\{[A-Za-z_]+\}|[[\]]/)
    .filter((p) => p !== "");
}

function payloadTexts(p: Payload, out: string[]): void {
  switch (p.kind) {
    case "json-calls":
      out.push(...(p.nameKeys ?? []), ...(p.argsKeys ?? []), ...(p.idKeys ?? []));
      return;
    case "json-args":
    case "python-tag":
      return;
    case "header-args":
      for (const h of p.header) out.push(...patternLiterals(h));
      out.push(...p.headerEnd);
      return;
    case "tagged":
      if (p.call) {
        for (const o of p.call.open) out.push(...patternLiterals(o));
        out.push(p.call.close);
      }
      if (p.nameSep !== undefined) out.push(p.nameSep);
      if ("key" in p.params) out.push(p.params.key.open, p.params.key.close, p.params.value.open, p.params.value.close);
      else {
        for (const o of p.params.open) out.push(...patternLiterals(o));
        out.push(p.params.close);
      }
      out.push(...(p.afterParam ?? []), ...(p.implicitEnds ?? []).map((e) => e.tag));
      if (p.cdata) out.push("<![CDATA[", "]]>");
      return;
    case "xml-calls":
      out.push(...p.open, ...p.close, p.call.element, p.itemTag);
      if (p.params.by === "attribute") {
        out.push(p.params.element, p.params.key);
        if (p.params.type !== undefined) out.push(p.params.type, ...TYPE_NAMES);
      }
      if (p.jsonElement !== undefined) out.push(p.jsonElement);
      for (const o of p.call.head) out.push(...patternLiterals(o));
      return;
    case "literal-calls":
      if (p.namePrefix !== undefined) out.push(p.namePrefix);
      // The dialect's string quote tokens (FunctionGemma's `<escape>`) are markup too.
      for (const q of literalDialect(p.dialect).strings) out.push(q.quote);
      return;
    case "python-or-json":
      payloadTexts(p.json, out);
      return;
    case "by-first-char":
      for (const q of Object.values(p.cases)) payloadTexts(q, out);
      payloadTexts(p.otherwise, out);
      return;
  }
}

function ruleText(r: ChannelRule): string {
  return "find" in r ? r.find : "start" in r ? r.start : r.whole;
}

/** Every literal text of the format's call syntax (markers are listed by the description itself). */
export function syntaxTexts(format: FormatDescription): string[] {
  const out: string[] = [];
  for (const r of format.regions) payloadTexts(r.payload, out);
  if (format.channels) {
    payloadTexts(format.channels.callPayload, out);
    for (const r of format.channels.rules) out.push(...patternLiterals(ruleText(r)));
    for (const h of format.channels.headers) out.push(...patternLiterals(h));
  }
  out.push(...(format.pseudoTools ?? []));
  return [...new Set(out.filter((t) => t.trim() !== ""))];
}
