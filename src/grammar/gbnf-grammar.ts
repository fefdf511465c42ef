/**
 * The GBNF grammar for one request, emitted from the format's description (calls.ts, payloads.ts):
 * optional reasoning, then free text and/or the format's calls with arguments that match each tool's
 * JSON Schema, as tool_choice allows:
 *   auto      text (calls text)*        (calls at most once when parallel_tool_calls is false)
 *   none      text only
 *   required  calls only, at least one
 *   named     calls of that tool only
 * Free text, reasoning and raw values never contain a marker of the format, so every call the model
 * writes is a grammatical one and reads back exactly as the grammar derived it.
 */
import { ChatwireError } from "../errors.js";
import { listFormats } from "../formats/index.js";
import type { FormatDescription, FormatId } from "../formats/types.js";
import { formatOf } from "./format-of.js";
import { callShape, derivedShape, type CallShape } from "./calls.js";
import { channelLazyBody } from "./channel-lazy.js";
import { channelBody } from "./channels.js";
import { alt, GbnfBuilder, lit, type Capture } from "./gbnf.js";
import { formatMarkers, regionEndMarkers } from "./markers.js";
import type { EmitContext } from "./payloads.js";
import { primitive } from "./primitives.js";
import { SchemaRules } from "./schema-rules.js";
import { lazyTriggers, type LazyTrigger } from "./lazy-triggers.js";
import { textWithout, type TextGuard } from "./text-rules.js";
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

/** A lazy grammar: free output until a trigger fires, then `grammar` from the trigger's match on. */
export interface LazyGrammar {
  grammar: string;
  triggers: LazyTrigger[];
}

/**
 * The lazy form of the `tool_choice: "auto"` grammar (llama.cpp's `grammar_lazy`): the root is the
 * answer from its first group of calls on (`calls text (calls text)*`), and the triggers are the
 * texts a group starts with (lazy-triggers.ts). Undefined when the request is not `auto` with a
 * callable tool: `required` and a named tool constrain the whole output, `none` needs nothing.
 */
export function buildLazyGbnf(format: FormatId | FormatDescription, request: unknown, options: GrammarOptions = {}): LazyGrammar | undefined {
  const lazy = emitLazyGbnf(format, request, options);
  return lazy === undefined ? undefined : { grammar: lazy.text, triggers: lazy.triggers };
}

export function emitLazyGbnf(format: FormatId | FormatDescription, request: unknown, options: GrammarOptions = {}): (EmittedGrammar & { triggers: LazyTrigger[] }) | undefined {
  const req = toolRequest(request);
  if (req.choice.kind !== "auto" || req.tools.length === 0) return undefined;
  const out = emit(format, req, options, true);
  return out.triggers === undefined ? undefined : { text: out.text, captures: out.captures, triggers: out.triggers };
}

/**
 * Why a format has no grammar, or undefined when it has one: the reason its file declares
 * (`grammar.unavailable`), else what stops the emitter (a description nobody registered).
 */
export function grammarUnavailable(format: FormatId | FormatDescription): string | undefined {
  const description = formatOf(format);
  const builder = new GbnfBuilder();
  const shape = callShape(description, { builder, schemas: new SchemaRules(builder), format: description });
  return "reason" in shape ? shape.reason : undefined;
}

/**
 * What stops the emitter writing a grammar for the description, ignoring its `grammar` field, or
 * undefined when it can write one. test/grammar/unavailable.test.ts checks that exactly these formats
 * declare `grammar.unavailable`.
 */
export function emitterLimit(format: FormatId | FormatDescription): string | undefined {
  const description = formatOf(format);
  const builder = new GbnfBuilder();
  const shape = derivedShape(description, { builder, schemas: new SchemaRules(builder), format: description });
  return "reason" in shape ? shape.reason : undefined;
}

/** The formats that have a grammar. */
export function grammarFormats(): FormatId[] {
  return listFormats()
    .filter((f) => grammarUnavailable(f) === undefined)
    .map((f) => f.id);
}

export function emitGbnf(format: FormatId | FormatDescription, request: unknown, options: GrammarOptions = {}): EmittedGrammar {
  const { text, captures } = emit(format, toolRequest(request), options, false);
  return { text, captures };
}

function emit(format: FormatId | FormatDescription, req: ToolRequest, options: GrammarOptions, lazy: boolean): EmittedGrammar & { triggers?: LazyTrigger[] } {
  const description = formatOf(format);
  const builder = new GbnfBuilder();
  builder.stringMarkers = regionEndMarkers(description);
  const markers = formatMarkers(description);
  builder.textMarkers = markers;
  // Filled once the call shape is known, before any value rule is built.
  const valueMarkers: string[] = [...markers];
  const root = builder.reserve("root");
  const rawLayout = { tight: false };
  const schemas = new SchemaRules(builder, (guard, hint) => rawValueText(builder, valueMarkers, guard, hint, rawLayout.tight), () => valueMarkers);
  const ctx: EmitContext = { builder, schemas, format: description, rawLayout, ...(options.templateSource !== undefined ? { templateSource: options.templateSource } : {}) };
  const shape = callShape(description, ctx);
  if ("reason" in shape) {
    throw new ChatwireError("unknown_format", `no grammar for format ${JSON.stringify(description.id)}: ${shape.reason}`);
  }
  valueMarkers.push(...shape.markers);
  const textMarkers = shape.atStartOnly ? markers.filter((m) => !description.regions.some((r) => r.atStartOnly === true && r.start.includes(m))) : markers;
  let triggers: LazyTrigger[] | undefined;
  if (description.channels !== undefined) {
    // Messages routed by their headers (channels.ts); a lazy form only where a call header opens
    // with a marker wherever it is written (channel-lazy.ts: harmony, not Functionary).
    if (lazy) {
      const form = channelLazyBody(ctx, shape, req, options.promptSuffix);
      if (form === undefined) return { text: "", captures: builder.captures };
      root.define(form.rule);
      triggers = form.triggers;
    } else root.define(channelBody(ctx, shape, req, options.promptSuffix));
  } else if (lazy) {
    // Reasoning is never constrained lazily: the triggers fire only outside it.
    root.define(lazyBodyRule(builder, shape, req, textMarkers));
    const opened = reasoningOpened(description, options.promptSuffix);
    triggers = lazyTriggers({ format: description, starts: shape.starts, atStartOnly: shape.atStartOnly, reasoningOpened: opened, names: callableTools(req).map((t) => t.function.name) });
  } else {
    const reasoning = reasoningPrefix(builder, description, markers, options.promptSuffix);
    const body = bodyRule(builder, shape, req, textMarkers);
    root.define([reasoning, body].filter((p) => p !== "").join(" "));
  }
  builder.comment(`chatwire ${lazy ? "lazy " : ""}grammar for format ${description.id}, tool_choice ${req.choice.kind}${req.parallel ? "" : ", one call at most"}`);
  if (schemas.relaxed.length > 0) builder.comment(`relaxed (not enforced by the grammar, checked by the parser): ${schemas.relaxed.join("; ")}`);
  return { text: builder.toString(), captures: builder.captures, ...(triggers !== undefined ? { triggers } : {}) };
}

/** The prompt ended inside an opened reasoning block (its generation prompt wrote the start). */
function reasoningOpened(format: FormatDescription, promptSuffix: string | undefined): boolean {
  const markers = format.reasoning?.[0];
  return markers !== undefined && promptSuffix !== undefined && markers.start.some((s) => promptSuffix.trimEnd().endsWith(s.trimEnd()));
}

/**
 * The raw text of a tagged parameter value. It holds no marker or tag of the format (the parser
 * would end the value, the call or the region there, or read a different call), and no carriage
 * return (the parser strips a `\r\n` before the close tag, so a final `\r` would be lost).
 */
function rawValueText(builder: GbnfBuilder, markers: readonly string[], guard: TextGuard | undefined, hint: string, tight: boolean): string {
  const options = { exclude: "\\r", excluded: (ch: string) => ch === "\r", noEdgeNewlines: tight, ...(guard !== undefined ? { guard } : {}) };
  return textWithout(builder, hint, [...new Set(markers)], options);
}

/** `reasoning?` before the answer, or the rest of a reasoning block the prompt already opened. */
function reasoningPrefix(builder: GbnfBuilder, format: FormatDescription, all: readonly string[], promptSuffix: string | undefined): string {
  const markers = format.reasoning?.[0];
  if (markers === undefined) return "";
  // Every spelling the parser reads (Gemma 4 closes with or without a newline).
  const start = alt(markers.start.map(lit));
  const end = alt(markers.end.map(lit));
  // No marker at all inside: the parser may open calls in reasoning, or end it at any end spelling.
  const text = builder.capture(textWithout(builder, "reasoning-text", all), { kind: "reasoning" });
  if (reasoningOpened(format, promptSuffix)) return builder.add("reasoning", `${text} ${end}`);
  return `${builder.add("reasoning", `${start} ${text} ${end}`)}?`;
}

/**
 * The `auto` answer from its first group of calls on: `calls text (calls text)*` (one group with one
 * call when parallel calls are off), or the calls alone for formats that write them only at the start.
 */
function lazyBodyRule(builder: GbnfBuilder, shape: CallShape, req: ToolRequest, markers: readonly string[]): string {
  const single = !req.parallel;
  const block = builder.add("calls", shape.block(callableTools(req), single));
  if (shape.atStartOnly) return block;
  const text = builder.capture(textWithout(builder, "content", markers), { kind: "content" });
  return builder.add("answer", `${block} ${text}${single ? "" : ` (${block} ${text})*`}`);
}

function bodyRule(builder: GbnfBuilder, shape: CallShape, req: ToolRequest, markers: readonly string[]): string {
  const tools = callableTools(req);
  let content: string | undefined;
  const textOnly = (): string => {
    if (content !== undefined) return content;
    const text = builder.capture(textWithout(builder, shape.atStartOnly ? "content-text" : "content", markers), { kind: "content" });
    // Calls only at the very start: text that does not start with `{` (or `<`, which might open a marker).
    content = shape.atStartOnly ? builder.add("content", `${primitive(builder, "ws")} ([^{<\\x00 \\t\\n\\r] ${text})?`) : text;
    return content;
  };
  if (tools.length === 0) return textOnly();
  const single = !req.parallel;
  const block = builder.add("calls", shape.block(tools, single));
  const ws = primitive(builder, "ws");
  if (req.choice.kind === "auto") {
    if (shape.atStartOnly) return builder.add("answer", `${ws} ${block} | ${textOnly()}`);
    const text = textOnly();
    return builder.add("answer", `${text} (${block} ${text})${single ? "?" : "*"}`);
  }
  // required or a named function: nothing but calls.
  const repeat = !single && !shape.atStartOnly ? ` (${ws} ${block})*` : "";
  return builder.add("answer", `${ws} ${block}${repeat} ${ws}`);
}
