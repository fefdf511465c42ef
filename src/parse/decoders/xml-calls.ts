/**
 * The decoder for calls written as elements whose tags are special tokens, so that a value ends
 * exactly at the next token and no look-ahead is needed:
 *
 * - MiniMax M3 (MiniMax-M3.jinja, macro `to_xml`): `NS<invoke name="f">NS<city>Paris NS</city>
 *   NS</invoke>` with NS = `]<]minimax[>[`; a parameter is an element named by its key, a mapping is
 *   nested elements, a list is `<item>` elements, a leaf is its text;
 * - Kimi K3 (Kimi-K3.jinja): `<|open|>call tool="f" index="1"<|sep|><|open|>argument key="city"
 *   type="string"<|sep|>Paris<|close|>argument<|sep|><|close|>call<|sep|>`; a parameter is an
 *   `argument` element whose attributes give the key and the JSON type (non-strings are JSON text), or
 *   the arguments are one `json` element holding the object.
 *
 * A call is announced when its open tag is read; its arguments are built and written once its close
 * tag arrives (a value's type depends on the whole element). A failed call's text, from its first
 * character to the end of the region, is reported in one `fail` at the end of the region.
 */
import type { JsonSchema } from "../../types.js";
import type { DecoderContext, DecoderEvent, DecoderFactory } from "../decoder.js";
import { propertySchema, resolveRef, schemaTypes, typeRawValue, UNTYPED_JSON } from "../coerce.js";
import type { ValueType } from "../coerce.js";
import { jsonStringBody } from "../literal/json-text.js";
import { isSchemaObject } from "../../schema/walk.js";
import { skipSpace, StepDecoder } from "./step-decoder.js";
import { isToolName, MAX_TAG, tokenAt } from "./tag-scan.js";

export interface XmlCallsSyntax {
  /** An open tag is `open[0] + head + open[1]`; a close tag `close[0] + name + close[1]`. */
  open: readonly [string, string];
  close: readonly [string, string];
  /** The call element's name, and the call's name read from its open tag's head (undefined: not a call). */
  callElement: string;
  callName(head: string): string | undefined;
  /** How a parameter is written: an element named by its key, or an element with key/type attributes. */
  params: { by: "element" } | { by: "attribute"; element: string; key: string; type?: string };
  /** An element whose text is the whole arguments object as JSON (Kimi K3 `json`). */
  jsonElement?: string;
  /** The element name of a list item. */
  itemTag: string;
  /** Types of leaves the tool's schema says nothing about. */
  untyped: readonly ValueType[];
}

/** Nesting deeper than this is not an argument value. */
const MAX_DEPTH = 64;

type State = "between" | "call" | "failed" | "closed";

export function xmlCallsDecoder(syntax: XmlCallsSyntax): DecoderFactory {
  return (ctx: DecoderContext) => new XmlCallsDecoder(syntax, ctx);
}

class XmlCallsDecoder extends StepDecoder<State> {
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
    super(ctx.regionText, "between");
    this.closeTag = syntax.close[0] + syntax.callElement + syntax.close[1];
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
    const [prefix, suffix] = this.syntax.open;
    const opens = tokenAt(s, i, prefix, final);
    if (opens === "partial") return -1;
    if (opens === "no") return this.failAt(i, "expected a call, found");
    const at = i + prefix.length;
    const end = s.indexOf(suffix, at);
    if (end < 0) {
      if (!final && s.length - at < MAX_TAG) return -1;
      return this.failAt(i, "a call's open tag does not end");
    }
    // The head's attribute values are XML-escaped like the arguments' (`tool="a&amp;b"` names `a&b`).
    const name = end - at < MAX_TAG ? this.syntax.callName(unescapeAttr(s.slice(at, end))) : undefined;
    if (name === undefined || !isToolName(name)) return this.failAt(i, "expected a call, found");
    this.rawFrom = this.origin + i;
    this.bodyFrom = this.origin + end + suffix.length;
    this.name = name;
    this.state = "call";
    this.emit({ kind: "call", name });
    return end + suffix.length;
  }

  /**
   * Looks for the call's close tag in what has arrived. The body is read from `seen` once complete;
   * a tail that may be the start of the close tag stays pending, so the search never re-reads the body.
   */
  private inCall(s: string, i: number): number {
    const at = s.indexOf(this.closeTag, i);
    if (at < 0) {
      const stop = Math.max(i, s.length - (this.closeTag.length - 1));
      return stop > i ? stop : -1;
    }
    const body = this.seen.slice(this.bodyFrom, this.origin + at);
    const parsed = readArguments(body, this.syntax, this.ctx.toolSchema(this.name));
    if (typeof parsed === "string") {
      // The body is whole here, so its message is the same for every split.
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
  attrs: Record<string, string>;
  text: string;
  children: Element[];
}

/** The JSON types a `type` attribute may name (Kimi K3's template writes these). */
export const TYPE_NAMES: ReadonlySet<string> = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

const ATTR = /([A-Za-z_][\w-]*)="([^"]*)"/g;

function unescapeAttr(v: string): string {
  return v.replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

/** `argument key="city" type="string"`: the element name and its attributes. */
function readHead(head: string): { name: string; attrs: Record<string, string> } | undefined {
  // The whole head must be a name and attributes: anything else in it is not a tag.
  const m = /^([^\s"'<>/|=]+)(?:\s+[A-Za-z_][\w-]*="[^"]*")*\s*$/.exec(head);
  if (m === null) return undefined;
  const attrs: Record<string, string> = {};
  for (const a of head.slice(m[1]!.length).matchAll(ATTR)) {
    // An attribute written twice (`type="nut" type="number"`) is no tag: one of the values would vanish.
    if (Object.hasOwn(attrs, a[1]!)) return undefined;
    attrs[a[1]!] = unescapeAttr(a[2]!);
  }
  return { name: m[1]!, attrs };
}

/** The body's elements, or a message saying why it is not a well-formed sequence of them. */
function readTree(body: string, syntax: XmlCallsSyntax): Element | string {
  const [open, openEnd] = syntax.open;
  const [close, closeEnd] = syntax.close;
  const root: Element = { name: "", attrs: {}, text: "", children: [] };
  const stack: Element[] = [root];
  let p = 0;
  for (;;) {
    const o = body.indexOf(open, p);
    const c = body.indexOf(close, p);
    // Where both match (MiniMax: the close prefix extends the open one), it is a close tag.
    const isClose = c >= 0 && (o < 0 || c <= o);
    const at = isClose ? c : o;
    const text = body.slice(p, at < 0 ? body.length : at);
    const top = stack[stack.length - 1]!;
    if (top.children.length > 0 || top === root) {
      if (text.trim() !== "") return `text between elements: ${JSON.stringify(text.slice(0, 40))}`;
    } else top.text += text;
    if (at < 0) break;
    const headFrom = at + (isClose ? close.length : open.length);
    const headEnd = body.indexOf(isClose ? closeEnd : openEnd, headFrom);
    if (headEnd < 0 || headEnd - headFrom > MAX_TAG) return "a tag does not end";
    const head = body.slice(headFrom, headEnd);
    p = headEnd + (isClose ? closeEnd : openEnd).length;
    if (isClose) {
      if (stack.length === 1 || top.name !== head.trim()) return `unexpected close tag ${JSON.stringify(head)}`;
      stack.pop();
    } else {
      if (stack.length > MAX_DEPTH) return "nesting too deep";
      if (top !== root && top.text.trim() !== "") return `an element inside the text of ${JSON.stringify(top.name)}`;
      const h = readHead(head);
      if (h === undefined) return `not a tag: ${JSON.stringify(head.slice(0, 40))}`;
      const el: Element = { name: h.name, attrs: h.attrs, text: "", children: [] };
      top.children.push(el);
      stack.push(el);
    }
  }
  if (stack.length > 1) return `${JSON.stringify(stack[stack.length - 1]!.name)} is not closed`;
  return root;
}

/** The arguments of a call body, typed by the tool's schema, or a message saying why it is not one. */
function readArguments(body: string, syntax: XmlCallsSyntax, parameters: JsonSchema | undefined): { json: string; value: unknown } | string {
  const root = readTree(body, syntax);
  if (typeof root === "string") return root;
  const members: string[] = [];
  // Attributes the syntax does not read are not markup this format writes: the call is not one of its calls.
  const allowed = new Set(syntax.params.by === "attribute" ? [syntax.params.key, ...(syntax.params.type === undefined ? [] : [syntax.params.type])] : []);
  for (const el of root.children) {
    const isJson = syntax.jsonElement !== undefined && el.name === syntax.jsonElement;
    const extra = Object.keys(el.attrs).find((a) => !(isJson ? a === "type" : allowed.has(a)));
    if (extra !== undefined) return `unexpected attribute ${JSON.stringify(extra)}`;
    if (isJson && el.attrs["type"] !== undefined && el.attrs["type"] !== "object") return `the arguments element's type is ${JSON.stringify(el.attrs["type"])}`;
    if (isJson && el.children.length === 0) {
      if (root.children.length !== 1) return "a JSON arguments element among parameters";
      let value: unknown;
      try {
        value = JSON.parse(el.text);
      } catch {
        return "the arguments element is not JSON";
      }
      if (typeof value !== "object" || value === null || Array.isArray(value)) return "the arguments element is not a JSON object";
      return { json: el.text.trim(), value };
    }
    let key: string;
    let declared: readonly ValueType[] | undefined;
    if (syntax.params.by === "element") key = el.name;
    else {
      if (el.name !== syntax.params.element) return `unexpected element ${JSON.stringify(el.name)}`;
      const k = el.attrs[syntax.params.key];
      if (k === undefined) return `a parameter without its ${syntax.params.key} attribute`;
      key = k;
      const t = syntax.params.type === undefined ? undefined : el.attrs[syntax.params.type];
      if (t !== undefined && !TYPE_NAMES.has(t)) return `unknown type ${JSON.stringify(t)} of ${JSON.stringify(key)}`;
      if (t !== undefined) declared = t === "string" ? ["string"] : UNTYPED_JSON.filter((x) => x !== "string");
    }
    members.push(`"${jsonStringBody(key)}": ${writeValue(el, propertySchema(parameters, key), parameters, syntax, declared)}`);
  }
  const json = `{${members.join(", ")}}`;
  return { json, value: JSON.parse(json) as unknown };
}

/** The JSON text of an element's value, typed by `schema` (a sub-schema of `root`) or by its `declared` type. */
function writeValue(el: Element, schema: JsonSchema | undefined, root: JsonSchema | undefined, syntax: XmlCallsSyntax, declared?: readonly ValueType[]): string {
  const types = schema !== undefined ? schemaTypes(schema, root) : (declared ?? syntax.untyped);
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
    const items = resolved !== undefined && isSchemaObject(resolved["items"]) ? (resolved["items"] as JsonSchema) : undefined;
    return `[${el.children.map((c) => writeValue(c, items, root, syntax)).join(", ")}]`;
  }
  // A name repeated among an element's children is a list of their values (`<tag>a</tag><tag>b</tag>` is
  // `"tag": ["a", "b"]`, as vLLM's MiniMax M3 parser reads it), not a key whose earlier values vanish.
  const groups = new Map<string, Element[]>();
  for (const c of el.children) {
    const group = groups.get(c.name);
    if (group === undefined) groups.set(c.name, [c]);
    else group.push(c);
  }
  const members: string[] = [];
  for (const [name, group] of groups) {
    const sub = propertySchema(resolved, name);
    const value = group.length === 1 ? writeValue(group[0]!, sub, root, syntax) : `[${group.map((c) => writeValue(c, itemSchema(sub, root), root, syntax)).join(", ")}]`;
    members.push(`"${jsonStringBody(name)}": ${value}`);
  }
  return `{${members.join(", ")}}`;
}

/** The schema of one of several same-named elements: the list schema's `items`, or the schema itself. */
function itemSchema(schema: JsonSchema | undefined, root: JsonSchema | undefined): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const resolved = resolveRef(schema, root);
  if (isSchemaObject(resolved["items"])) return resolved["items"] as JsonSchema;
  return schemaTypes(schema, root).includes("array") ? undefined : schema;
}

