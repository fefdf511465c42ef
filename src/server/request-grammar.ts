/**
 * The tool-call constraints for each request (the grammar of the whole output, the lazy grammar and the
 * structural tag), built from the format and the request's tools (src/grammar); the grammars are kept
 * by what they depend on: building one was a quarter of a request's CPU time, and clients send
 * the same tools on every turn. A grammar that cannot be built is not a reason to refuse the request:
 * it is generated without one (and the parser still checks).
 */
import { BoundedCache } from "../bounded-cache.js";
import { ChatwireError } from "../errors.js";
import { getFormat } from "../formats/index.js";
import type { FormatId } from "../formats/types.js";
import { buildGbnf, buildLazyGbnf, buildStructuralTag, grammarFormats, grammarUnavailable, type LazyGrammar, type StructuralTag } from "../grammar/index.js";
import { isDeepFrozen } from "../jinja/index.js";
import { PyFloat } from "../jinja/py-float.js";
import { normalizeToolChoice } from "../request/tools.js";
import type { ChatTemplate } from "../template/index.js";
import type { GrammarRequest } from "./generation.js";

/**
 * Grammars kept, and characters of key and grammar text in all (a grammar is a few times its tools'
 * text). A JS string of these costs one or two bytes a character, so this is at most 8 MB.
 */
const MAX_GRAMMARS = 256;
const MAX_CHARS = 4 << 20;

/**
 * What buildGbnf reads (src/grammar/tool-request.ts and gbnf-grammar.ts): the format, the tools, tool_choice,
 * parallel_tool_calls and the prompt's end; the template source is fixed per server. As text: the
 * body is JSON read by readSharedJson (plain data, integral floats as PyFloat), so equal text means
 * an equal request. A PyFloat is marked as a string with a leading NUL; a request holding such a
 * string itself is not cached (its key could be mistaken for one with a float).
 *
 * The key is the JSON text of the array of those values, each printed on its own: a deeply frozen
 * value (readSharedJson's tools list, the same object again while the client sends the same tools)
 * keeps its text by identity, so a request whose tools were seen before costs no walk of them, and it
 * stands in the key as a short id of that text (`~7`; no JSON text starts with `~`), so the key
 * hashed and compared at every lookup is tens of characters, not the tools' text (tens of KB for a
 * client with many tools). An id is given once per kept text: two frozen objects of equal text get
 * two ids, and at worst a grammar is built twice. One key per request: the full and the lazy grammar
 * read the same one.
 */
const keys = new WeakMap<GrammarRequest, string | undefined>();
const keyTexts = new WeakMap<object, KeyText>();

interface KeyText {
  /** JSON text, `null` for undefined (as in an array); for a frozen value kept by identity, its id (`~7`). */
  text: string;
  /** Holds a string that starts with NUL: no key. */
  ambiguous: boolean;
}

function keyText(value: unknown): KeyText {
  if (typeof value === "string") return { text: JSON.stringify(value), ambiguous: value.charCodeAt(0) === 0 };
  if (value === undefined) return { text: "null", ambiguous: false };
  if (value === null || typeof value !== "object") return printed(value);
  let kept = keyTexts.get(value);
  if (kept === undefined) {
    kept = printed(value);
    if (isDeepFrozen(value)) keyTexts.set(value, (kept = { text: `~${(nextId++).toString(36)}`, ambiguous: kept.ambiguous }));
  }
  return kept;
}

/** The next id for a frozen value's text (a double: exact past any count of requests a server meets). */
let nextId = 0;

function printed(value: unknown): KeyText {
  let ambiguous = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof PyFloat) return `\u0000${v.value}`;
    if (typeof v === "string" && v.charCodeAt(0) === 0) ambiguous = true;
    return v;
  }) as string | undefined;
  return { text: text ?? "null", ambiguous };
}

function grammarKey(request: GrammarRequest): string | undefined {
  if (keys.has(request)) return keys.get(request);
  const { body } = request;
  const parts = [request.format, request.output.reasoning, request.promptSuffix, body.tools, body.tool_choice, body.parallel_tool_calls].map(keyText);
  const key = parts.some((p) => p.ambiguous) ? undefined : `[${parts.map((p) => p.text).join(",")}]`;
  keys.set(request, key);
  return key;
}

/** The constraints built for a request, each kept by what it depends on. */
export interface RequestGrammars {
  /** The grammar of the whole output. */
  full(request: GrammarRequest): string | undefined;
  /** The lazy grammar and its triggers (only `tool_choice: "auto"`; undefined otherwise). */
  lazy(request: GrammarRequest): LazyGrammar | undefined;
  /** The structural tag (only `auto`, and formats whose calls are JSON arguments between fixed text). */
  structuralTag(request: GrammarRequest): StructuralTag | undefined;
}

export function requestGrammars(template: ChatTemplate, log: ((line: string) => void) | undefined): RequestGrammars {
  const options = (request: GrammarRequest) => ({ promptSuffix: request.promptSuffix, templateSource: template.source });
  const full = cached(log, (request) => buildGbnf(request.output, request.body, options(request)), (g) => g.length);
  const lazy = cached(log, (request) => buildLazyGbnf(request.output, request.body, options(request)) ?? null, (g) => (g === null ? 0 : g.grammar.length));
  // A format without one is known once (the builder says so for any request).
  const noTag = new Set<FormatId>();
  const covered = new Set<FormatId>(grammarFormats());
  return {
    full,
    lazy: (request) => lazy(request) ?? undefined,
    structuralTag(request) {
      if (!isAuto(request.body) || !hasTools(request.body) || noTag.has(request.format) || !covered.has(request.format)) return undefined;
      try {
        return buildStructuralTag(request.output, request.body);
      } catch (err) {
        // The format has none (its calls are not JSON between fixed text): the grammar goes instead.
        if (err instanceof ChatwireError && err.code === "unknown_format") noTag.add(request.format);
        else log?.(`warning: no structural tag for this request (${err instanceof Error ? err.message : String(err)})`);
        return undefined;
      }
    },
  };
}

const hasTools = (body: Record<string, unknown>): boolean => Array.isArray(body.tools) && body.tools.length > 0;
const isAuto = (body: Record<string, unknown>): boolean => {
  try {
    return normalizeToolChoice(body.tool_choice).kind === "auto";
  } catch {
    return false;
  }
};

/**
 * A grammar builder behind the format check and the cache: undefined when the request has no tools,
 * the format has no grammar (said once per format) or the build fails (said each time).
 */
function cached<T>(log: ((line: string) => void) | undefined, build: (request: GrammarRequest) => T, size: (value: T) => number): (request: GrammarRequest) => T | undefined {
  const covered = new Set<FormatId>(grammarFormats());
  const told = new Set<FormatId>();
  const built = new BoundedCache<string, T>(MAX_GRAMMARS, MAX_CHARS, (key, value) => key.length + size(value));
  return (request) => {
    if (!hasTools(request.body)) return undefined;
    const { format } = request;
    // A description of the format's own (a declared response template, the polyfill's json-block with
    // reasoning) may have a grammar where the family has none: then the build decides.
    if (request.output === getFormat(format) && !covered.has(format)) {
      // Said once per format, with the reason, instead of silently generating unconstrained.
      if (!told.has(format)) log?.(`warning: no grammar for format ${format} (${grammarUnavailable(format) ?? "unknown"}); generating without one`);
      told.add(format);
      return undefined;
    }
    try {
      const key = grammarKey(request);
      return key === undefined ? build(request) : built.get(key, () => build(request));
    } catch (err) {
      // Not kept: the same request is refused again the same way (and logged again).
      log?.(`warning: no grammar for this request (${err instanceof Error ? err.message : String(err)})`);
      return undefined;
    }
  };
}
