/**
 * The `tool_calls` field as call regions of the format language. Three shapes compile:
 * - `json` whose transform makes the body the function object (or names its keys): `json-calls`;
 * - `json` after a captured name (`<|tool_call>call:(?P<name>\w+)`): `header-args`, or with Gemma 4's
 *   JSON dialect (`unquoted_keys` and `<|"|>` string delimiters) `literal-calls` in the `gemma` dialect;
 * - `xml-inline` after a captured name, whose `tag_pattern` is `KEY-TAG VALUE CLOSE`: `tagged`.
 * Anything else (`kv-lines`, scalars, `value_parser`, `merge_duplicates`, `allow_non_json`, another JSON
 * dialect) is refused with the field and construct.
 */
import type { Payload, RegionSpec } from "../parse/language.js";
import { expand, literals, readAnchorPattern, refused, trimSpaces, type Read } from "./markers.js";
import { readPattern, type Piece } from "./python-regex.js";
import { readTransform, type CallShape } from "./transform.js";
import type { JsonValue, ResponseTemplateField } from "./types.js";
import { truthy } from "./validate.js";

/** Escapes text for a format-language pattern (patterns.ts: space, quote, brackets, braces, backslash are syntax). */
export function patternLiteral(text: string): string {
  return text.replace(/[\\ "[\]{}]/g, (c) => `\\${c}`);
}

/** Pieces split at whitespace runs. */
function splitAtSpaces(pieces: readonly Piece[]): Piece[][] {
  const parts: Piece[][] = [[]];
  for (const p of pieces) {
    if (p.kind === "space") parts.push([]);
    else parts[parts.length - 1]!.push(p);
  }
  return parts.filter((part) => part.length > 0);
}

function anchorPieces(field: string, key: string, literal: string | readonly string[] | undefined, pattern: string | undefined): Read<Piece[]> {
  if (literal !== undefined) {
    const list = literals(literal);
    return { ok: true, value: list.length === 1 ? [{ kind: "literal", text: list[0]! }] : [{ kind: "alternatives", options: list }] };
  }
  const read = readAnchorPattern(`${field}.${key}_pattern`, pattern ?? "");
  return read.ok ? { ok: true, value: trimSpaces(read.value) } : read;
}

function markersOf(field: string, construct: string, pieces: readonly Piece[]): Read<string[]> {
  const out = expand(pieces);
  return out === undefined || out.length === 0 ? refused(field, construct, "a call marker must be literal text") : { ok: true, value: out };
}

const GEMMA_DIALECT = (args: Record<string, JsonValue>): boolean => {
  const delims = args.string_delims;
  return (
    Object.keys(args).length === 2 &&
    args.unquoted_keys === true &&
    Array.isArray(delims) &&
    delims.length === 1 &&
    JSON.stringify(delims[0]) === JSON.stringify(['<|"|>', '<|"|>'])
  );
};

/** The name hole of an open pattern: `PREFIX (?P<n>...) SUFFIX` after the region's start marker. */
interface Header {
  prefix: string;
  suffix: string;
}

function readHeader(field: string, rest: readonly Piece[], capture: string): Read<Header> {
  const at = `${field}.open_pattern`;
  const core = trimSpaces(rest);
  const groupAt = core.findIndex((p) => p.kind === "group");
  const group = core[groupAt];
  if (group?.kind !== "group" || group.name !== capture || core.filter((p) => p.kind === "group").length !== 1) {
    return refused(at, `the captures ${JSON.stringify(rest.filter((p) => p.kind === "group").map((p) => (p as { name: string }).name))}`, `the call header must capture only the name (${capture})`);
  }
  const side = (pieces: Piece[]): string | undefined => (pieces.every((p) => p.kind === "literal") ? pieces.map((p) => (p as { text: string }).text).join("") : undefined);
  const prefix = side(core.slice(0, groupAt));
  const suffix = side(core.slice(groupAt + 1));
  if (prefix === undefined || suffix === undefined) return refused(at, "whitespace or alternatives around the name", "a call header is literal text around the name");
  return { ok: true, value: { prefix, suffix } };
}

/** Splits an open anchor into the region's start marker(s) and the pieces after it. */
function splitOpen(pieces: readonly Piece[]): { head: Piece[]; rest: Piece[] } {
  const stop = pieces.findIndex((p) => p.kind === "space" || p.kind === "group");
  return stop < 0 ? { head: [...pieces], rest: [] } : { head: pieces.slice(0, stop), rest: pieces.slice(stop) };
}

function jsonPayload(field: string, f: ResponseTemplateField, shape: CallShape, rest: readonly Piece[], start: string[], end: string[] | undefined): Read<RegionSpec> {
  const args = f.content_args ?? {};
  const gemma = GEMMA_DIALECT(args);
  if (!gemma && Object.keys(args).length > 0) {
    return refused(`${field}.content_args`, `the JSON options ${Object.keys(args).sort().join(", ")}`, "the language's JSON decoders read standard JSON (or Gemma 4's dialect: unquoted_keys with <|\"|> strings)");
  }
  const region = (payload: Payload): Read<RegionSpec> => ({ ok: true, value: { start, ...(end ? { end } : {}), payload } });
  if (shape.name?.from === "capture") {
    if (shape.arguments?.from !== "content") return refused(`${field}.transform.function.arguments`, "arguments from a key of the body", "after a captured name the body is the arguments");
    if (shape.id !== undefined) return refused(`${field}.transform.id`, "an id", "a call header with a name carries no id here");
    const header = readHeader(field, rest, shape.name.name);
    if (!header.ok) return header;
    const { prefix, suffix } = header.value;
    if (gemma) {
      if (suffix !== "") return refused(`${field}.open_pattern`, `text after the name (${JSON.stringify(suffix)})`, "Gemma's calls write the arguments right after the name");
      return region({ kind: "literal-calls", dialect: "gemma", ...(prefix !== "" ? { namePrefix: prefix } : {}) });
    }
    return region({ kind: "header-args", header: [`${patternLiteral(prefix)}{name}`], headerEnd: suffix === "" ? [] : [suffix], ...(suffix === "" ? { braceEndsHeader: true } : {}) });
  }
  if (gemma) return refused(`${field}.content_args`, "Gemma's JSON dialect without a captured name", "the gemma dialect reads calls as name{args}");
  if (rest.length > 0) return refused(`${field}.open_pattern`, "text after the start marker", "a JSON call object follows its marker directly");
  const keys = (s: CallShape["name"], fallback: string): string[] => [s?.from === "content-key" ? s.key : fallback];
  if (!shape.wholeFunction && (shape.name?.from !== "content-key" || shape.arguments?.from !== "content-key")) {
    return refused(`${field}.transform.function`, "name or arguments from the whole body", "a JSON call object names its parts by keys");
  }
  if (shape.id !== undefined && shape.id.from !== "content-key") return refused(`${field}.transform.id`, "an id not from a key of the body", "a JSON call's id is one of its keys");
  return region({
    kind: "json-calls",
    nameKeys: keys(shape.name, "name"),
    argsKeys: keys(shape.arguments, "arguments"),
    ...(shape.id?.from === "content-key" ? { idKeys: [shape.id.key] } : {}),
  });
}

/** `<parameter=(?P<key>...)>\s*(?P<value>.*?)\s*</parameter>` as the tagged payload's parameter tags. */
/**
 * `value_parser: {name: "json", args: {allow_non_json: true}}`: a value is JSON when it parses, else text,
 * which is the language's `untyped: "json"`. Any other value parser has no equivalent.
 */
const JSON_OR_TEXT = (v: JsonValue | undefined): boolean => JSON.stringify(v) === JSON.stringify({ name: "json", args: { allow_non_json: true } });

/** What follows a value's close tag for it to end the value (the tagged payload's `afterParam`). */
interface ValueEnd {
  afterParam: string[];
  afterParamNewline: boolean;
}

/**
 * A tag pattern's trailing lookahead as the tagged decoder's value end (export-calls.ts `valueEnd`
 * writes it): `(?=\s*\Z|GAP TAGS)`, the body's end or, after whitespace (`\s*`, or with
 * `afterParamNewline` `(?:[^\S\n]*\n\s*)?`), one of the literal TAGS.
 */
function splitValueEnd(pattern: string): { rest: string; end?: ValueEnd } {
  const m = /\(\?=\\s\*\\Z\|(\\s\*|\(\?:\[\^\\S\\n\]\*\\n\\s\*\)\?)((?:[^()\\]|\\.|\(\?:(?:[^()\\]|\\.)*\))+)\)$/.exec(pattern);
  if (m === null) return { rest: pattern };
  const tags = readPattern(m[2]!);
  const only = tags.ok && tags.pieces.length === 1 ? tags.pieces[0]! : undefined;
  const afterParam = only?.kind === "literal" ? [only.text] : only?.kind === "alternatives" ? [...only.options] : undefined;
  if (afterParam === undefined) return { rest: pattern };
  return { rest: pattern.slice(0, m.index), end: { afterParam, afterParamNewline: m[1] !== "\\s*" } };
}

type TaggedParams = Extract<Payload, { kind: "tagged" }>["params"];

function readTagPattern(field: string, args: Record<string, JsonValue>): Read<{ params: TaggedParams; end?: ValueEnd }> {
  const at = `${field}.content_args`;
  const extra = Object.keys(args).filter((k) => k !== "tag_pattern" && !(k === "merge_duplicates" && args[k] === false) && !(k === "value_parser" && JSON_OR_TEXT(args[k])));
  if (extra.length > 0) return refused(at, `the option${extra.length > 1 ? "s" : ""} ${extra.join(", ")}`, "tagged values are raw text typed by the tool's schema; a value parser or merged duplicate keys have no equivalent");
  if (typeof args.tag_pattern !== "string") return refused(`${at}.tag_pattern`, "a missing tag_pattern", "xml-inline needs a tag_pattern");
  const { rest, end } = splitValueEnd(args.tag_pattern);
  // `\n?` around the value is layout, as `\s*` is: the tagged decoder trims a value's padding newlines.
  const read = readAnchorPattern(`${at}.tag_pattern`, rest, { optionalNewline: true });
  if (!read.ok) return read;
  const p = read.value.filter((x) => x.kind !== "space");
  const withEnd = (params: TaggedParams) => ({ ok: true as const, value: { params, ...(end ? { end } : {}) } });
  const [kp, key, ks, value, vc, vc2] = p;
  const lit = (x: Piece | undefined): x is Extract<Piece, { kind: "literal" }> => x?.kind === "literal";
  if (lit(kp) && key?.kind === "group" && key.name === "key" && lit(ks)) {
    if (p.length === 5 && value?.kind === "group" && value.name === "value" && value.lazyAny && lit(vc)) {
      return withEnd({ open: [`${patternLiteral(kp.text)}{key}${patternLiteral(ks.text)}`], close: vc.text });
    }
    // GLM's key and value tags: `<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)</arg_value>`.
    if (p.length === 6 && key.lazyAny && lit(value) && vc?.kind === "group" && vc.name === "value" && vc.lazyAny && lit(vc2)) {
      return withEnd({ key: { open: kp.text, close: ks.text }, value: { open: value.text, close: vc2.text } });
    }
  }
  return refused(`${at}.tag_pattern`, args.tag_pattern, "a parameter is OPEN(?P<key>...)CLOSE-OF-OPEN (?P<value>.*?) CLOSE, or KEY-OPEN (?P<key>.*?) KEY-CLOSE VALUE-OPEN (?P<value>.*?) VALUE-CLOSE, all literal");
}

function xmlPayload(field: string, f: ResponseTemplateField, shape: CallShape, head: string[], rest: readonly Piece[], close: readonly Piece[]): Read<RegionSpec> {
  if (shape.name?.from !== "capture" || shape.arguments?.from !== "content" || shape.id !== undefined) {
    return refused(`${field}.transform`, "a shape other than {name: capture, arguments: body}", "tagged calls take their name from the call tag");
  }
  const params = readTagPattern(field, f.content_args ?? {});
  if (!params.ok) return params;
  const closeParts = splitAtSpaces(close);
  const closeAt = `${field}.${f.close_pattern !== undefined ? "close_pattern" : "close"}`;
  const { end: valueEnd, params: tags } = params.value;
  const common = {
    params: tags,
    ...(valueEnd ? { afterParam: valueEnd.afterParam, ...(valueEnd.afterParamNewline ? { afterParamNewline: true } : {}) } : {}),
    untyped: JSON_OR_TEXT(f.content_args?.value_parser) ? ("json" as const) : ("string" as const),
  };
  const payload = (callOpen: string, callClose: string): Payload => ({ kind: "tagged", call: { open: [callOpen], close: callClose }, ...common });
  if (closeParts.length === 1 && rest[0]?.kind === "space" && rest[1]?.kind === "group") {
    // No call tag (GLM): the name is the region's leading text, maybe followed by a separator tag, and
    // the region's end closes the one call.
    const after = rest.slice(2).filter((x) => x.kind !== "space");
    const sep = after.length === 1 && after[0]!.kind === "literal" ? after[0]!.text : undefined;
    if (after.length > (sep === undefined ? 0 : 1)) return refused(`${field}.open_pattern`, "text after the name", "a call without a call tag writes its name, then maybe one separator tag");
    const end = markersOf(closeAt, "the region close", closeParts[0]!);
    if (!end.ok) return end;
    return { ok: true, value: { start: head, end: end.value, payload: { kind: "tagged", ...(sep !== undefined ? { nameSep: sep } : {}), ...common } } };
  }
  if (rest[0]?.kind === "group") {
    // The open marker is the call tag itself (`<function=(?P<name>...)>`): a region that starts in its payload.
    const header = readHeader(field, rest, shape.name.name);
    if (!header.ok) return header;
    if (closeParts.length !== 1 || head.length !== 1) return refused(closeAt, "several close tags", "a bare call tag closes with one tag");
    const callClose = markersOf(closeAt, "the call close", closeParts[0]!);
    if (!callClose.ok) return callClose;
    if (callClose.value.length !== 1) return refused(closeAt, "alternative call closes", "a tagged call has one close tag");
    return { ok: true, value: { start: head, startInPayload: true, payload: payload(`${patternLiteral(head[0]!)}{name}${patternLiteral(header.value.suffix)}`, callClose.value[0]!) } };
  }
  const header = readHeader(field, rest, shape.name.name);
  if (!header.ok) return header;
  if (closeParts.length !== 2) {
    return refused(closeAt, "a close without a call tag and a region tag", "a wrapped tagged call closes with CALL-CLOSE then REGION-CLOSE (the language's tagged calls have a close tag of their own)");
  }
  const callClose = markersOf(closeAt, "the call close", closeParts[0]!);
  const end = markersOf(closeAt, "the region close", closeParts[1]!);
  if (!callClose.ok) return callClose;
  if (!end.ok) return end;
  if (callClose.value.length !== 1) return refused(closeAt, "alternative call closes", "a tagged call has one close tag");
  return { ok: true, value: { start: head, end: end.value, payload: payload(`${patternLiteral(header.value.prefix)}{name}${patternLiteral(header.value.suffix)}`, callClose.value[0]!) } };
}

/** The `tool_calls` field as one call region, or why it cannot be one. */
export function compileToolCalls(field: string, f: ResponseTemplateField): Read<RegionSpec> {
  if (f.join !== undefined) return refused(`${field}.join`, "join", "calls are a list, not a joined string");
  if (!truthy(f.repeats) && !f.transform_each) return refused(`${field}.repeats`, "repeats: false", "without repeats transformers keeps one call object, not a list, and only the last");
  if (f.open === undefined && f.open_pattern === undefined) return refused(field, "an implicit tool_calls field", "calls need a start marker");
  const content = f.content ?? "text";
  if (content !== "json" && content !== "xml-inline") {
    return refused(`${field}.content`, `content ${content}`, content === "kv-lines" ? "the language has no line-delimited key/value payload (its key/value parameters are tags)" : "a call is not a scalar");
  }
  const open = anchorPieces(field, "open", f.open, f.open_pattern);
  if (!open.ok) return open;
  const close = f.close !== undefined || f.close_pattern !== undefined ? anchorPieces(field, "close", f.close, f.close_pattern) : undefined;
  if (close !== undefined && !close.ok) return close;
  const { head, rest } = splitOpen(open.value);
  const start = markersOf(`${field}.open${f.open_pattern !== undefined ? "_pattern" : ""}`, "the start marker", head);
  if (!start.ok) return start;
  const captures = rest.filter((p): p is Extract<Piece, { kind: "group" }> => p.kind === "group").map((p) => p.name);
  const shape = readTransform(field, f.transform, captures, f.transform_each ?? false);
  if (!shape.ok) return shape;
  if (content === "xml-inline") {
    if (f.transform_each) return refused(`${field}.transform_each`, "transform_each", "xml-inline parses one call's parameters");
    return xmlPayload(field, f, shape.value, start.value, rest, close?.value ?? []);
  }
  let end: string[] | undefined;
  if (close !== undefined) {
    const markers = markersOf(`${field}.close${f.close_pattern !== undefined ? "_pattern" : ""}`, "the end marker", close.value);
    if (!markers.ok) return markers;
    end = markers.value;
  }
  return jsonPayload(field, f, shape.value, rest, start.value, end);
}
