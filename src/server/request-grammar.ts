/**
 * The tool-call grammar for each request, built from the format and the request's tools (src/grammar)
 * and kept by what it depends on: building one was a quarter of a request's CPU time, and clients send
 * the same tools on every turn. A grammar that cannot be built is not a reason to refuse the request:
 * it is generated without one (and the parser still checks).
 */
import { BoundedCache } from "../bounded-cache.js";
import type { FormatId } from "../formats/types.js";
import { buildGbnf, grammarFormats, grammarUnavailable } from "../grammar/index.js";
import { PyFloat } from "../jinja/py-float.js";
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
 */
function grammarKey(request: GrammarRequest): string | undefined {
  let ambiguous = false;
  const { body } = request;
  const text = JSON.stringify([request.format, request.promptSuffix, body.tools, body.tool_choice, body.parallel_tool_calls], (_key, v: unknown) => {
    if (v instanceof PyFloat) return `\u0000${v.value}`;
    if (typeof v === "string" && v.charCodeAt(0) === 0) ambiguous = true;
    return v;
  });
  return ambiguous ? undefined : text;
}

export function requestGrammar(template: ChatTemplate, log: ((line: string) => void) | undefined): (request: GrammarRequest) => string | undefined {
  const covered = new Set<FormatId>(grammarFormats());
  const told = new Set<FormatId>();
  const built = new BoundedCache<string, string>(MAX_GRAMMARS, MAX_CHARS, (key, grammar) => key.length + grammar.length);
  // A declared response template the family does not speak is what the server parses with (ChatTemplate
  // parseFormatFor), so the grammar follows it for the template's own format.
  const declared = template.responseFormat?.source === "declared" ? template.responseFormat.format : undefined;
  const describe = (format: FormatId) => (declared !== undefined && format === template.format ? declared : format);
  const build = (request: GrammarRequest): string => buildGbnf(describe(request.format), request.body, { promptSuffix: request.promptSuffix, templateSource: template.source });
  return (request) => {
    const tools = request.body.tools;
    if (!Array.isArray(tools) || tools.length === 0) return undefined;
    const { format } = request;
    if (describe(format) === format && !covered.has(format)) {
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
