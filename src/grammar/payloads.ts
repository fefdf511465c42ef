/**
 * GBNF for the payload kinds of the format language (src/parse/language.ts): how a family writes the
 * calls inside one call region, read from its description, never written per family. Each writer
 * gives the rule for the calls of one region (`group`), in the family's canonical spelling: the first
 * spelling of every marker and pattern, optional pattern parts left out, JSON keys `name` then
 * arguments, tagged values between newlines (the parser strips exactly one on each side).
 *
 * A payload kind the emitter cannot write (raw code, nested XML elements, Gemma literals) gives a
 * reason instead, which `chatwire grammar` and `serve` report.
 */
import type { FormatDescription, Payload } from "../formats/types.js";
import type { FunctionTool } from "../types.js";
import { MISTRAL_ID_LENGTH } from "../parse/ids.js";
import { literalDialect } from "../parse/literal/dialects.js";
import { onPayload, type PayloadOf, type PayloadTable } from "../parse/payload-kinds.js";
import { alt, lit, type GbnfBuilder } from "./gbnf.js";
import { choosePattern, patternGbnf, patternLiterals, patternPrefix } from "./pattern-gbnf.js";
import { primitive } from "./primitives.js";
import { gemmaDict, seq, type ObjectSyntax, type SchemaRules } from "./schema-rules.js";

export interface EmitContext {
  builder: GbnfBuilder;
  schemas: SchemaRules;
  format: FormatDescription;
  /** The chat template's source, when known: which spelling a `by-first-char` family's model writes. */
  templateSource?: string;
  /**
   * Raw values sit right against their tags (MiniMax `<parameter name="k">v</parameter>`), so they may
   * not start or end with a newline; set by the tagged writer. Qwen3-Coder's layout puts them between
   * newlines instead.
   */
  rawLayout?: { tight: boolean };
}

export interface PayloadWriter {
  /**
   * The rule for the calls of one region: one call (`single`) or one or more. `opened`: the payload
   * characters the region's start marker already wrote (`functools[` opens the JSON array). `first`:
   * the payload must start with this character (a `by-first-char` case).
   */
  group(tools: readonly FunctionTool[], single: boolean, opened: string, first?: string): string;
  /** Every tag and marker the payload writes, which a raw value may not contain. */
  markers: readonly string[];
  /** A region holds at most one call (a header names it). */
  oneCall: boolean;
  /** A call may already end its line (GLM's last value tag is followed by a newline). */
  endsLine?: boolean;
}

export type WriterOrReason = PayloadWriter | { reason: string };

/** The GBNF writer of each payload kind, or why it has none. */
const WRITERS: PayloadTable<WriterOrReason, [EmitContext]> = {
  "json-calls": (p, ctx) => jsonCalls(p, ctx),
  "header-args": (p, ctx) => headerArgs(p, ctx),
  tagged: (p, ctx) => tagged(p, ctx),
  "literal-calls": (p, ctx) => {
    // The Gemma family (bare keys, strings between quote tokens): the quote comes from the dialect.
    const dialect = literalDialect(p.dialect);
    if (dialect.dictKeys === "bare") return gemmaCalls(p.namePrefix ?? "", dialect.strings[0]!.quote, ctx);
    // Olmo 3 writes calls one per line; a family that says calls *may* sit in a list writes one bare call per region.
    return pythonCalls(p.namePrefix ?? "", p.sequence === true ? "lines" : p.list === true ? "bare" : "list", ctx);
  },
  "python-or-json": (_p, ctx) => pythonCalls("", "list", ctx),
  "by-first-char": (p, ctx) => byFirstChar(p, ctx),
  "python-tag": () => ({ reason: "<|python_tag|> holds raw code for a built-in tool, which a grammar cannot type" }),
  "xml-calls": (p, ctx) => xmlCalls(p, ctx),
  "json-args": () => ({ reason: "a bare arguments body belongs to a channel message, whose header names the call" }),
};

export function payloadWriter(payload: Payload, ctx: EmitContext): WriterOrReason {
  return onPayload(WRITERS, payload, ctx);
}

function hint(tool: FunctionTool): string {
  return tool.function.name;
}

function callRule(builder: GbnfBuilder, tool: FunctionTool, body: string): string {
  return builder.capture(builder.add(`${hint(tool)}-call`, body), { kind: "call", name: tool.function.name });
}

function anyCall(builder: GbnfBuilder, tools: readonly FunctionTool[], name: string, one: (t: FunctionTool) => string): string {
  return builder.add(name, tools.map(one).join(" | "));
}

/** `first (sep first)*`, or just `first`. */
function list(item: string, sep: string, single: boolean): string {
  return single ? item : `${item} (${sep} ${item})*`;
}

/** The JSON object syntax of arguments. */
function jsonObject(builder: GbnfBuilder): ObjectSyntax {
  const space = primitive(builder, "space");
  return {
    open: `"{" ${space}`,
    close: `"}" ${space}`,
    key: (name) => `${lit(JSON.stringify(name))} ${space} ":" ${space}`,
    after: "",
    sep: `"," ${space}`,
    anyKey: `${primitive(builder, "json-string")} ":" ${space}`,
    values: "json",
  };
}

function jsonArgs(ctx: EmitContext, tool: FunctionTool): string {
  return ctx.schemas.objectRule(tool.function.parameters, `${hint(tool)}-args`, jsonObject(ctx.builder));
}

/** A call whose text is the tool's JSON arguments alone (a channel message's body). */
export function jsonCallBody(ctx: EmitContext, tool: FunctionTool): string {
  return callRule(ctx.builder, tool, jsonArgs(ctx, tool));
}

function jsonCalls(payload: PayloadOf<"json-calls">, ctx: EmitContext): PayloadWriter {
  const { builder } = ctx;
  const space = primitive(builder, "space");
  const member = (key: string) => `${lit(JSON.stringify(key))} ${space} ":" ${space}`;
  // Every key the parser reads: the model writes the one it was trained on (Llama `parameters`).
  const nameKey = alt((payload.nameKeys ?? ["name"]).map((k) => lit(JSON.stringify(k))));
  const argsKey = alt((payload.argsKeys ?? ["arguments"]).map((k) => lit(JSON.stringify(k))));
  const keyed = (key: string) => `${key} ${space} ":" ${space}`;
  const idKey = payload.idKeys?.[0];
  const idValue = `"\\"" ${callId(ctx)} "\\""`;
  const call = (t: FunctionTool): string => {
    const args = jsonArgs(ctx, t);
    if (payload.nameIsKey === true) return callRule(builder, t, seq(`"{" ${space}`, member(t.function.name), args, `"}" ${space}`));
    const id = idKey === undefined ? "" : `("," ${space} ${member(idKey)} ${idValue} ${space})?`;
    return callRule(
      builder,
      t,
      seq(`"{" ${space}`, keyed(nameKey), lit(JSON.stringify(t.function.name)), space, `"," ${space}`, keyed(argsKey), args, id, `"}" ${space}`),
    );
  };
  return {
    markers: [],
    oneCall: false,
    group(tools, single, opened, first) {
      const one = anyCall(builder, tools, "json-call", call);
      const items = list(one, `"," ${space}`, single);
      if (opened === "[") return `${space} ${items} "]" ${space}`;
      const array = `"[" ${space} ${items} "]" ${space}`;
      if (first === "[") return array;
      if (payload.sequence === true) return list(one, '"\\n"', single);
      // An object alone holds one call; several go in an array (or in several regions).
      return first === "{" ? one : alt([one, array]);
    },
  };
}

/** The call ids the model may write: what the parser keeps as they are (ids.ts `validId`), kept short. */
function callId(ctx: EmitContext): string {
  return ctx.format.idStyle === "mistral" ? `[a-zA-Z0-9]{${MISTRAL_ID_LENGTH}}` : "[a-zA-Z0-9_-]{1,40}";
}

/** Expressions for the holes of a header pattern. */
function holeExprs(ctx: EmitContext, name: string): Record<string, string> {
  return {
    name: lit(name),
    index: "[0-9]{1,3}",
    id: callId(ctx),
  };
}

function headerArgs(payload: PayloadOf<"header-args">, ctx: EmitContext): WriterOrReason {
  // Every header spelling the parser reads whose holes can be written (a model's own id included).
  const patterns = payload.header.filter((p) => choosePattern([p], ["name", "index", "id"]) !== undefined);
  const end = payload.headerEnd[0];
  if (patterns.length === 0 || end === undefined) return { reason: "no call header pattern that names only the tool" };
  const { builder } = ctx;
  return {
    markers: [...payload.headerEnd, ...payload.header.flatMap(patternLiterals)],
    oneCall: true,
    group(tools) {
      return anyCall(builder, tools, "header-call", (t) => {
        const header = alt(patterns.map((p) => patternGbnf(p, holeExprs(ctx, t.function.name))));
        return callRule(builder, t, `${header} ${lit(end)} ${jsonArgs(ctx, t)}`);
      });
    },
  };
}

function tagged(payload: PayloadOf<"tagged">, ctx: EmitContext): WriterOrReason {
  const { builder, schemas } = ctx;
  const params = payload.params;
  const markers: string[] = [...(payload.afterParam ?? []), ...(payload.implicitEnds ?? []).map((e) => e.tag)];
  // Qwen3-Coder and Seed-OSS templates write values between newlines; the others right against the tags.
  const tight = payload.afterParamNewline !== true;
  if (ctx.rawLayout !== undefined) ctx.rawLayout.tight = tight;
  const nl = tight ? "" : "\n";
  if (payload.nameSep !== undefined) markers.push(payload.nameSep);
  let key: (name: string) => string;
  let after: string;
  if ("key" in params) {
    markers.push(params.key.open, params.key.close, params.value.open, params.value.close);
    key = (name) => `${lit(`${params.key.open}${name}${params.key.close}\n${params.value.open}${nl}`)}`;
    after = lit(`${nl}${params.value.close}\n`);
  } else {
    const open = choosePattern(params.open, ["key"]);
    if (open === undefined) return { reason: "no parameter tag pattern that names only the key" };
    markers.push(params.close, ...params.open.map(patternPrefix), ...params.open.flatMap(patternLiterals));
    key = (name) => (tight ? patternGbnf(open, { key: lit(name) }) : `${patternGbnf(open, { key: lit(name) })} "\\n"`);
    after = lit(`${nl}${params.close}\n`);
  }
  const open = payload.call === undefined ? undefined : choosePattern(payload.call.open, ["name"]);
  if (payload.call !== undefined) {
    if (open === undefined) return { reason: "no call tag pattern that names only the tool" };
    markers.push(payload.call.close, ...payload.call.open.map(patternPrefix), ...payload.call.open.flatMap(patternLiterals));
  }
  const syntax: ObjectSyntax = { open: "", close: "", key, after, sep: "", values: "raw", captureMembers: true };
  const call = (t: FunctionTool): string => {
    const args = schemas.objectRule(t.function.parameters, `${hint(t)}-args`, syntax);
    const name = t.function.name;
    if (payload.call === undefined) return callRule(builder, t, seq(lit(`${name}${payload.nameSep ?? ""}\n`), args));
    return callRule(builder, t, seq(patternGbnf(open as string, { name: lit(name) }), '"\\n"', args, lit(payload.call.close)));
  };
  return {
    markers: [...new Set(markers.filter((m) => m !== ""))],
    // Without a call tag the region's leading text is the one call's name (GLM).
    oneCall: payload.call === undefined,
    endsLine: payload.call === undefined,
    group(tools, single) {
      const one = anyCall(builder, tools, "tagged-call", call);
      return single || payload.call === undefined ? one : `${one} ("\\n" ${one})*`;
    },
  };
}

/**
 * Calls as elements whose tags are special tokens (Kimi K3, MiniMax M3): the call's open tag names
 * the tool (the first head pattern, optional parts left out), then one leaf element per argument (an
 * element named by the key, or the parameter element with the key attribute and no type attribute),
 * whose text is the raw value typed by the schema, as the decoder reads a leaf (xml-calls.ts:
 * typeRawValue over the element's text, nothing stripped). Objects and lists are written as JSON text
 * in the leaf, which the decoder reads the same as nested elements. Raw text holds no tag prefix and
 * no edge newline (the tight layout), and an element-named key must be an element name.
 */
function xmlCalls(payload: PayloadOf<"xml-calls">, ctx: EmitContext): WriterOrReason {
  const { builder, schemas } = ctx;
  const head = choosePattern(payload.call.head, ["name"]);
  if (head === undefined) return { reason: "no call head pattern that names only the tool" };
  if (ctx.rawLayout !== undefined) ctx.rawLayout.tight = true;
  const [open, openEnd] = payload.open;
  const [close, closeEnd] = payload.close;
  const params = payload.params;
  const attr = (v: string): string => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
  const key = (name: string): string =>
    params.by === "element" ? lit(`${open}${name}${openEnd}`) : lit(`${open}${params.element} ${params.key}="${attr(name)}"${openEnd}`);
  const after = (name: string): string => lit(`${close}${params.by === "element" ? name : params.element}${closeEnd}`);
  const call = (t: FunctionTool): string => {
    const members: ObjectSyntax = { open: "", close: "", key, after: "", afterKey: after, sep: "", values: "raw", captureMembers: true };
    const args = schemas.objectRule(t.function.parameters, `${hint(t)}-args`, members);
    const openTag = seq(lit(open), patternGbnf(head, { name: lit(attr(t.function.name)) }), lit(openEnd));
    return callRule(builder, t, seq(openTag, args, lit(`${close}${payload.call.element}${closeEnd}`)));
  };
  return {
    markers: [open, close, openEnd === ">" ? "" : openEnd, ...patternLiterals(payload.call.head[0]!)].filter((m) => m.length > 1),
    oneCall: false,
    group(tools, single) {
      const one = anyCall(builder, tools, "xml-call", call);
      return single ? one : `${one}+`;
    },
  };
}

function pythonCalls(namePrefix: string, layout: "list" | "bare" | "lines", ctx: EmitContext): PayloadWriter {
  const { builder, schemas } = ctx;
  const space = primitive(builder, "space");
  const kwargs: ObjectSyntax = {
    open: "",
    close: "",
    key: (name) => lit(`${name}=`),
    after: "",
    sep: `"," ${space}`,
    values: "python",
    captureMembers: true,
  };
  const call = (t: FunctionTool): string => {
    const args = schemas.objectRule(t.function.parameters, `${hint(t)}-args`, kwargs);
    return callRule(builder, t, `${lit(`${namePrefix}${t.function.name}(`)} ${args} ")"`);
  };
  return {
    markers: [],
    oneCall: layout === "bare",
    group(tools, single) {
      const one = anyCall(builder, tools, "py-call", call);
      if (layout === "bare") return one;
      if (layout === "lines") return list(one, '"\\n"', single);
      return builder.add("py-call-list", `"[" ${list(one, `"," ${space}`, single)} "]"`);
    },
  };
}

/** Gemma 4 `call:f{k:<|"|>v<|"|>,n:1}`, FunctionGemma `call:f{k:<escape>v<escape>}`: one call per region. */
function gemmaCalls(namePrefix: string, quote: string, ctx: EmitContext): PayloadWriter {
  const { builder, schemas } = ctx;
  builder.stringQuote = quote;
  const call = (t: FunctionTool): string =>
    callRule(builder, t, `${lit(`${namePrefix}${t.function.name}`)} ${schemas.objectRule(t.function.parameters, `${hint(t)}-args`, gemmaDict(builder))}`);
  return {
    markers: [quote],
    oneCall: true,
    group: (tools) => anyCall(builder, tools, "gemma-call", call),
  };
}

/**
 * Every spelling the dispatch reads (`{` JSON or tags), or, when the template is known, the ones whose
 * markers it writes (Mistral v11+ templates render `[ARGS]`, older ones a JSON array).
 */
function byFirstChar(payload: PayloadOf<"by-first-char">, ctx: EmitContext): WriterOrReason {
  const branches: { payload: Payload; first?: string }[] = [
    { payload: payload.otherwise },
    ...Object.entries(payload.cases).map(([first, p]) => ({ payload: p, first })),
  ];
  const writers = branches.map((b) => ({ ...b, writer: payloadWriter(b.payload, ctx) }));
  let usable = writers.filter((w): w is { payload: Payload; first?: string; writer: PayloadWriter } => !("reason" in w.writer));
  if (usable.length === 0) return writers[0]!.writer;
  const source = ctx.templateSource;
  if (source !== undefined) {
    const marked = usable.filter((w) => w.writer.markers.length > 0);
    const written = marked.filter((w) => w.writer.markers.some((m) => source.includes(m)));
    if (written.length > 0) usable = written;
    else if (marked.length < usable.length) usable = usable.filter((w) => w.writer.markers.length === 0);
  }
  return {
    markers: [...new Set(usable.flatMap((w) => w.writer.markers))],
    oneCall: usable.every((w) => w.writer.oneCall),
    endsLine: usable.some((w) => w.writer.endsLine === true),
    group(tools, single, opened) {
      // A region holds one spelling; several calls in it only where that spelling allows.
      return alt(usable.map((w) => w.writer.group(tools, single || w.writer.oneCall, opened, w.first)));
    },
  };
}
