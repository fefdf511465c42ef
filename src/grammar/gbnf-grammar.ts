/**
 * The GBNF grammar for one request: optional reasoning, then free text and/or the family's calls with
 * arguments that match each tool's JSON Schema, as tool_choice allows:
 *   auto      text (calls text)*        (calls at most once when parallel_tool_calls is false)
 *   none      text only
 *   required  calls only, at least one
 *   named     one call of that tool (or several of it when parallel)
 * Free text never contains the family's call markers, so every call the model writes is a
 * grammatical one.
 */
import { ChatwireError } from "../errors.js";
import { getFormat } from "../formats/index.js";
import type { FormatDescription, FormatId } from "../formats/types.js";
import { familyFor, grammarFormats, rawParameterText, type Family } from "./families.js";
import { GbnfBuilder, lit, type Capture } from "./gbnf.js";
import { SchemaRules } from "./schema-rules.js";
import { textWithout } from "./text-rules.js";
import { formatMarkers, regionEndMarkers } from "./markers.js";
import { primitive } from "./primitives.js";
import { callableTools, toolRequest, type ToolRequest } from "./tool-request.js";

export interface GrammarOptions {
  /** The end of the rendered prompt: when the generation prompt opened reasoning, output starts inside it. */
  promptSuffix?: string;
  /** The chat template's source (mistral: which of its two call forms the model writes). */
  templateSource?: string;
}

/** The GBNF grammar (llama.cpp syntax) constraining a completion of `format` for `request`. */
export function buildGbnf(format: FormatId | FormatDescription, request: unknown, options: GrammarOptions = {}): string {
  return emitGbnf(format, request, options).text;
}

/** A grammar's text and what its rules mean (for tests that sample it; see Capture). */
export interface EmittedGrammar {
  text: string;
  captures: ReadonlyMap<string, Capture>;
}

export function emitGbnf(format: FormatId | FormatDescription, request: unknown, options: GrammarOptions = {}): EmittedGrammar {
  const description = typeof format === "string" ? getFormat(format) : format;
  const family = familyFor(description.id);
  if (family === undefined) {
    throw new ChatwireError(
      "unknown_format",
      `no grammar for format ${JSON.stringify(description.id)} (grammars exist for ${grammarFormats().join(", ")})`,
    );
  }
  const req = toolRequest(request);
  const builder = new GbnfBuilder();
  builder.stringMarkers = regionEndMarkers(description);
  const markers = formatMarkers(description);
  const root = builder.reserve("root");
  const schemas = new SchemaRules(builder, (guard, hint) => rawParameterText(builder, markers, guard, hint));
  const reasoning = reasoningPrefix(builder, description, markers, options.promptSuffix);
  const textMarkers = family.atStartOnly === true ? markers.filter((m) => m !== "{") : [...new Set([...markers, ...family.markers])];
  const body = bodyRule(builder, family, req, textMarkers, { builder, schemas, ...(options.templateSource !== undefined ? { templateSource: options.templateSource } : {}) });
  root.define([reasoning, body].filter((p) => p !== "").join(" "));
  builder.comment(`chatwire grammar for format ${description.id}, tool_choice ${req.choice.kind}${req.parallel ? "" : ", one call at most"}`);
  if (schemas.relaxed.length > 0) builder.comment(`relaxed (not enforced by the grammar, checked by the parser): ${schemas.relaxed.join("; ")}`);
  return { text: builder.toString(), captures: builder.captures };
}

/** `reasoning?` before the answer, or the rest of a reasoning block the prompt already opened. */
function reasoningPrefix(builder: GbnfBuilder, format: FormatDescription, all: readonly string[], promptSuffix: string | undefined): string {
  const markers = format.reasoning?.[0];
  if (markers === undefined) return "";
  const start = markers.start[0] as string;
  const end = markers.end[0] as string;
  // No marker at all inside: the parser may open calls in reasoning, or end it at any end spelling.
  const text = builder.capture(textWithout(builder, "reasoning-text", all), { kind: "reasoning" });
  const opened = promptSuffix !== undefined && promptSuffix.trimEnd().endsWith(start.trimEnd());
  if (opened) return builder.add("reasoning", `${text} ${lit(end)}`);
  return `${builder.add("reasoning", `${lit(start)} ${text} ${lit(end)}`)}?`;
}

function bodyRule(builder: GbnfBuilder, family: Family, req: ToolRequest, markers: readonly string[], ctx: Parameters<Family["block"]>[0]): string {
  const tools = callableTools(req);
  let content: string | undefined;
  const textOnly = (): string => {
    if (content !== undefined) return content;
    const text = builder.capture(textWithout(builder, family.atStartOnly === true ? "content-text" : "content", markers), { kind: "content" });
    // Calls only at the very start: text that does not start with `{` (or `<`, which might open a marker).
    content = family.atStartOnly === true ? builder.add("content", `${primitive(builder, "ws")} ([^{<\\x00 \\t\\n\\r] ${text})?`) : text;
    return content;
  };
  if (tools.length === 0) return textOnly();
  const single = !req.parallel;
  const block = builder.add("calls", family.block(ctx, tools, single));
  const ws = primitive(builder, "ws");
  if (req.choice.kind === "auto") {
    if (family.atStartOnly === true) return builder.add("answer", `${ws} ${block} | ${textOnly()}`);
    const text = textOnly();
    const more = family.repeatable && !single ? "*" : "?";
    return builder.add("answer", `${text} (${block} ${text})${more}`);
  }
  // required or a named function: nothing but calls.
  const repeat = family.repeatable && !single ? ` (${ws} ${block})*` : "";
  return builder.add("answer", `${ws} ${block}${repeat} ${ws}`);
}
