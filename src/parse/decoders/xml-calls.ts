/**
 * The decoder for calls whose arguments are XML elements named by their keys, every tag introduced by
 * a special token (MiniMax M3, MiniMax-M3.jinja macro `to_xml`):
 *
 *   NS<invoke name="f">NS<city>Paris NS</city>NS<tags>NS<item>a NS</item>NS</tags>NS</invoke>
 *
 * where NS is `]<]minimax[>[`. A mapping is its keys' elements, a list is `<item>` elements, a leaf is
 * its text (booleans written as JSON, numbers as Python prints them, strings as they are). Because the
 * token can only be a tag's start (it is a special token, never text), a value ends exactly at the
 * next token: no look-ahead is needed.
 *
 * A call is announced when its open tag is read; its arguments are built and written once its close
 * tag arrives (leaves are typed by the tool's schema at their position, so the whole call is needed).
 * Text is kept as in the tagged decoder: a failed call's text, from its first character to the end of
 * the region, is reported in one `fail` at the end of the region.
 */
import type { JsonSchema } from "../../types.js";
import type { DecoderContext, DecoderEvent, DecoderFactory } from "../decoder.js";
import { propertySchema, resolveRef, schemaTypes, typeRawValue } from "../coerce.js";
import type { ValueType } from "../coerce.js";
import { jsonStringBody } from "./pythonic-literal.js";
import { skipSpace, StepDecoder } from "./step-decoder.js";

export interface XmlCallsSyntax {
  /** The token before every tag. */
  tagPrefix: string;
  /** The call's name from its open tag (after the prefix), or undefined when it is not one. */
  callOpen(tag: string): string | undefined;
  callClose: string;
  /** The element name of a list item. */
  itemTag: string;
  /** Types of leaves the tool's schema says nothing about. */
  untyped: readonly ValueType[];
}

const MAX_TAG = 1024;
/** Nesting deeper than this is not an argument value. */
const MAX_DEPTH = 64;

type State = "between" | "call" | "failed" | "closed";

export function xmlCallsDecoder(syntax: XmlCallsSyntax): DecoderFactory {
  return (ctx: DecoderContext) => new XmlCallsDecoder(syntax, ctx);
}

class XmlCallsDecoder extends StepDecoder {
  private state: State = "between";
  private calls = 0;
  private name = "";
  /** Where the current call's (or the failed rest's) text starts in `seen`; -1: none kept. */
  private rawFrom = -1;
  /** Where the current call's body starts in `seen`. */
  private bodyFrom = 0;
  private failure = "";
  /** Where the failure's offending text starts (offset in `seen`), quoted by the engine; -1: none. */
  private failureAt = -1;
  private failedName: string | undefined;
  private readonly closeTag: string;

  constructor(
    private readonly syntax: XmlCallsSyntax,
    private readonly ctx: DecoderContext,
  ) {
    super(ctx.regionText);
    this.closeTag = syntax.tagPrefix + syntax.callClose;
  }

  protected isClosed(): boolean {
    return this.state === "closed";
  }

  protected close(): void {
    this.state = "closed";
  }

  protected run(s: string, final: boolean): number {
    let i = 0;
    while (i < s.length) {
      const j = this.state === "between" ? this.between(s, i, final) : this.state === "call" ? this.inCall(s, i) : s.length;
      if (j < 0) return i;
      i = j;
    }
    return i;
  }

  protected finish(rest: string, closed: boolean): void {
    if (rest !== "") this.run(rest, true);
    if (this.state === "failed") return this.emitFailure("malformed", this.failure);
    if (this.state === "call") return this.emitFailure(closed ? "malformed" : "truncated", closed ? "the region ended inside a call" : "the output ended inside a tool call");
    if (this.calls === 0) {
      this.rawFrom = 0;
      this.emitFailure(closed ? "malformed" : "truncated", "no tool call in the region");
    }
  }

  private between(s: string, i: number, final: boolean): number {
    const j = skipSpace(s, i);
    if (j > i) return j;
    const prefix = this.syntax.tagPrefix;
    const have = s.length - i;
    if (have < prefix.length) {
      if (!final && prefix.startsWith(s.slice(i))) return -1;
      return this.failAt(i, "expected a call, found");
    }
    if (!s.startsWith(prefix, i)) return this.failAt(i, "expected a call, found");
    const at = i + prefix.length;
    const gt = s.indexOf(">", at);
    if (gt < 0) {
      if (!final && s.length - at < MAX_TAG) return -1;
      return this.failAt(i, "a call's open tag does not end");
    }
    const name = gt - at < MAX_TAG ? this.syntax.callOpen(s.slice(at, gt + 1)) : undefined;
    if (name === undefined || !isToolName(name)) return this.failAt(i, "expected a call, found");
    this.rawFrom = this.origin + i;
    this.bodyFrom = this.origin + gt + 1;
    this.name = name;
    this.state = "call";
    this.emit({ kind: "call", name });
    return gt + 1;
  }

  /** Looks for the call's close tag in what has arrived; the body is read once it is found. */
  private inCall(s: string, i: number): number {
    // The body is read from `seen` once complete; here only the close tag is looked for. A tail that
    // may be the start of the close tag stays pending, so the search never re-reads the body.
    const at = s.indexOf(this.closeTag, i);
    if (at < 0) {
      const stop = Math.max(i, s.length - (this.closeTag.length - 1));
      return stop > i ? stop : -1;
    }
    const end = this.origin + at;
    const body = this.seen.slice(this.bodyFrom, end);
    const parsed = readArguments(body, this.syntax, this.ctx.toolSchema(this.name));
    if (typeof parsed === "string") {
      // The message names the call body's problem; the body is whole here, so it is the same for every split.
      this.failure = parsed;
      this.failureAt = -1;
      this.failedName = this.name;
      this.state = "failed";
      return s.length;
    }
    this.emit({ kind: "args", text: parsed.json });
    const stop = at + this.closeTag.length;
    this.emit({ kind: "done", arguments: parsed.json, value: parsed.value, raw: this.seen.slice(this.rawFrom, this.origin + stop) });
    this.calls++;
    this.rawFrom = -1;
    this.state = "between";
    return stop;
  }

  private failAt(i: number, message: string): number {
    this.failure = message;
    this.failureAt = this.origin + i;
    this.failedName = undefined;
    this.rawFrom = this.origin + i;
    this.state = "failed";
    return i;
  }

  private emitFailure(type: "malformed" | "truncated", message: string): void {
    const ev: DecoderEvent = { kind: "fail", type, message };
    if (this.failureAt >= 0 && this.state === "failed" && this.failedName === undefined) ev.at = this.failureAt;
    const name = this.state === "call" ? this.name : this.failedName;
    if (name !== undefined) ev.name = name;
    if (this.rawFrom >= 0) ev.raw = this.seen.slice(this.rawFrom, this.seen.total);
    this.emit(ev);
    this.rawFrom = -1;
  }
}

interface Element {
  name: string;
  text: string;
  children: Element[];
}

/** The arguments of a call body, typed by the tool's schema, or a message saying why it is not one. */
function readArguments(body: string, syntax: XmlCallsSyntax, parameters: JsonSchema | undefined): { json: string; value: unknown } | string {
  const pieces = body.split(syntax.tagPrefix);
  if (pieces[0]!.trim() !== "") return `text before the first parameter: ${JSON.stringify(pieces[0]!.slice(0, 40))}`;
  const root: Element = { name: "", text: "", children: [] };
  const stack: Element[] = [root];
  for (const piece of pieces.slice(1)) {
    const m = /^<(\/?)([^<>\s/]+)>/.exec(piece);
    if (m === null) return `not a tag: ${JSON.stringify(piece.slice(0, 40))}`;
    const text = piece.slice(m[0].length);
    const top = stack[stack.length - 1]!;
    if (m[1] === "/") {
      if (stack.length === 1 || top.name !== m[2]) return `unexpected close tag </${m[2]}>`;
      stack.pop();
      const parent = stack[stack.length - 1]!;
      if (text.trim() !== "") return `text after </${m[2]}>: ${JSON.stringify(text.slice(0, 40))}`;
      void parent;
    } else {
      if (stack.length > MAX_DEPTH) return "nesting too deep";
      if (top.text.trim() !== "") return `<${m[2]}> inside the text of <${top.name}>`;
      const el: Element = { name: m[2]!, text, children: [] };
      top.children.push(el);
      stack.push(el);
    }
  }
  if (stack.length > 1) return `<${stack[stack.length - 1]!.name}> is not closed`;
  const members = root.children.map((el) => `${JSON.stringify(el.name)}: ${writeValue(el, propertySchema(parameters, el.name), parameters, syntax)}`);
  const json = `{${members.join(", ")}}`;
  return { json, value: JSON.parse(json) as unknown };
}

/** The JSON text of an element's value, typed by `schema` (a sub-schema of `root`). */
function writeValue(el: Element, schema: JsonSchema | undefined, root: JsonSchema | undefined, syntax: XmlCallsSyntax): string {
  const types = schema === undefined ? syntax.untyped : schemaTypes(schema, root);
  if (el.children.length === 0) {
    if (el.text === "") {
      if (!types.includes("string") && types.includes("object")) return "{}";
      if (!types.includes("string") && types.includes("array")) return "[]";
      return '""';
    }
    return typeRawValue(el.text, types).json;
  }
  const resolved = schema === undefined ? undefined : resolveRef(schema, root);
  const allItems = el.children.every((c) => c.name === syntax.itemTag);
  if (allItems && !(types.includes("object") && !types.includes("array"))) {
    const items = resolved !== undefined && isSchema(resolved["items"]) ? (resolved["items"] as JsonSchema) : undefined;
    return `[${el.children.map((c) => writeValue(c, items, root, syntax)).join(", ")}]`;
  }
  return `{${el.children.map((c) => `"${jsonStringBody(c.name)}": ${writeValue(c, propertySchema(resolved, c.name), root, syntax)}`).join(", ")}}`;
}

function isSchema(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isToolName(name: string): boolean {
  return name !== "" && !/[\s"'`<>(){}[\],;]/.test(name);
}
