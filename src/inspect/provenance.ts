/**
 * Which characters of a rendered prompt came from the template and which from request data, for the
 * inspector. The data strings a template copies into the prompt (message content, reasoning, tool
 * and parameter descriptions, argument values, Responses input text) are wrapped in two Unicode
 * noncharacters and rendered; the marks then delimit data. A template that looks inside the text
 * (`content.startswith(...)`) may render differently with the marks, so the marked prompt, marks
 * removed, must equal the real prompt, or provenance is reported as unavailable rather than guessed.
 *
 * Token text is marked by the class the tokenizer gives it: `special` (a control token), `added` (an
 * added token that is not special, such as Qwen's `<tool_call>`: data can produce it too), and text
 * for everything else, even a tag that looks like a marker (`<tools>` is three ordinary tokens). Only
 * without a tokenizer (the static page) are texts shaped like control tokens marked, as a guess, with
 * the template's declared special tokens.
 */
import { escapeRegExp } from "../regexp-escape.js";
import type { ChatTemplate, RenderOptions } from "../template/core.js";

const OPEN = "\uFDD0";
const CLOSE = "\uFDD1";

export type SegmentKind = "template" | "data" | "special" | "special-in-data" | "added" | "added-in-data";

/** An added token of the tokenizer, by its text. */
export interface AddedText {
  text: string;
  special: boolean;
}

export interface Segment {
  text: string;
  kind: SegmentKind;
}

export interface AnnotatedPrompt {
  prompt: string;
  segments: Segment[];
  /** False when the template reads the data in a way the marks would change (see above). */
  provenance: boolean;
}

type Json = unknown;

const wrap = (s: string): string => OPEN + s + CLOSE;

function mapStrings(value: Json, f: (s: string) => string): Json {
  if (typeof value === "string") return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, f)]));
  }
  return value;
}

function obj(value: Json): Record<string, Json> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, Json>) : undefined;
}

function markContent(content: Json): Json {
  if (typeof content === "string") return wrap(content);
  if (Array.isArray(content)) {
    return content.map((part) => {
      const p = obj(part);
      return p && typeof p.text === "string" ? { ...p, text: wrap(p.text) } : part;
    });
  }
  return content;
}

function markDescriptions(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(markDescriptions);
  const s = obj(schema);
  if (s === undefined) return schema;
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === "description" && typeof v === "string" ? wrap(v) : markDescriptions(v)]));
}

function markTool(tool: Json): Json {
  const t = obj(tool);
  if (t === undefined) return tool;
  const fn = obj(t.function);
  if (fn !== undefined) return { ...t, function: markDescriptions(fn) };
  return markDescriptions(t);
}

function markMessage(message: Json): Json {
  const m = obj(message);
  if (m === undefined) return message;
  const out: Record<string, Json> = { ...m };
  if ("content" in m) out.content = markContent(m.content);
  if (typeof m.reasoning_content === "string") out.reasoning_content = wrap(m.reasoning_content);
  if (Array.isArray(m.tool_calls)) {
    out.tool_calls = m.tool_calls.map((call) => {
      const c = obj(call);
      const fn = obj(c?.function);
      if (c === undefined || fn === undefined || obj(fn.arguments) === undefined) return call;
      return { ...c, function: { ...fn, arguments: mapStrings(fn.arguments, wrap) } };
    });
  }
  return out;
}

function markInputItem(item: Json): Json {
  const i = obj(item);
  if (i === undefined) return item;
  const out: Record<string, Json> = { ...i };
  if ("content" in i) out.content = markContent(i.content);
  if (typeof i.output === "string") out.output = wrap(i.output);
  return out;
}

/** A copy of the request with its data strings marked. */
export function markRequest(request: Json): Json {
  const r = obj(request);
  if (r === undefined) return request;
  const out: Record<string, Json> = { ...r };
  if (Array.isArray(r.messages)) out.messages = r.messages.map(markMessage);
  if (typeof r.input === "string") out.input = wrap(r.input);
  else if (Array.isArray(r.input)) out.input = r.input.map(markInputItem);
  if (typeof r.instructions === "string") out.instructions = wrap(r.instructions);
  if (Array.isArray(r.tools)) out.tools = r.tools.map(markTool);
  return out;
}

/** How token text is found and classed: the tokenizer's added tokens, or (without one) a guess by shape. */
interface TokenMarks {
  pattern: RegExp;
  special(text: string): boolean;
}

function literalPattern(texts: readonly string[], extra: readonly string[] = []): RegExp {
  const literal = [...new Set(texts.filter((t) => t.length > 0))].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // A pattern that matches nothing when there is nothing to mark.
  return new RegExp([...literal, ...extra].join("|") || "(?!)", "gu");
}

function tokenMarks(template: ChatTemplate, added: readonly AddedText[] | undefined): TokenMarks {
  if (added !== undefined) {
    const special = new Set(added.filter((t) => t.special).map((t) => t.text));
    return { pattern: literalPattern(added.map((t) => t.text)), special: (text) => special.has(text) };
  }
  const declared = Object.values(template.specialTokens).filter((v): v is string => typeof v === "string");
  const shapes = ["<\\|[^<>|\\s]{1,48}\\|>", "<｜[^｜\\n]{1,48}｜>", "\\[/?[A-Z][A-Z_]{1,23}\\]"];
  return { pattern: literalPattern(declared, shapes), special: () => true };
}

function splitTokens(text: string, kind: "template" | "data", marks: TokenMarks, out: Segment[]): void {
  let last = 0;
  for (const m of text.matchAll(marks.pattern)) {
    if (m[0] === "") continue;
    if (m.index > last) out.push({ text: text.slice(last, m.index), kind });
    const cls = marks.special(m[0]) ? "special" : "added";
    out.push({ text: m[0], kind: kind === "data" ? `${cls}-in-data` : cls });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last), kind });
}

/** Renders `request` and labels every part of the prompt; `added` is the tokenizer's added tokens, when there is one. */
export function annotatePrompt(template: ChatTemplate, request: Json, options: RenderOptions, added: readonly AddedText[] | undefined): AnnotatedPrompt {
  const prompt = template.render(request as Record<string, unknown>, options);
  const pattern = tokenMarks(template, added);
  let marked: string | undefined;
  try {
    marked = template.render(markRequest(request) as Record<string, unknown>, options);
  } catch {
    marked = undefined;
  }
  const segments: Segment[] = [];
  if (marked === undefined || marked.replaceAll(OPEN, "").replaceAll(CLOSE, "") !== prompt) {
    splitTokens(prompt, "template", pattern, segments);
    return { prompt, segments, provenance: false };
  }
  let depth = 0;
  let start = 0;
  const flush = (end: number) => {
    if (end > start) splitTokens(marked!.slice(start, end), depth > 0 ? "data" : "template", pattern, segments);
  };
  for (let i = 0; i < marked.length; i++) {
    const ch = marked[i];
    if (ch !== OPEN && ch !== CLOSE) continue;
    flush(i);
    depth = Math.max(0, depth + (ch === OPEN ? 1 : -1));
    start = i + 1;
  }
  flush(marked.length);
  return { prompt, segments, provenance: true };
}
