/**
 * chatwire's Jinja runtime: Jinja2 semantics as transformers configures them, compiled to closures.
 *
 *   const t = compileTemplate(source);          // parsed and compiled once, cached by content
 *   t.render({ messages, tools, bos_token }, { now, limits });
 */
import { ChatwireError } from "../errors.js";
import { compileProgram, CompileError, type Stmt } from "./compile.js";
import type { FilterEnv } from "./filters.js";
import { FILTER_ALIASES, FILTERS } from "./filters.js";
import { Frame, type Runtime } from "./frame.js";
import { GLOBALS } from "./globals.js";
import { DEFAULT_LIMITS, RenderBudget, withBudget, type RenderLimits } from "./limits.js";
import { parseTemplate } from "./parse.js";
import { TESTS } from "./tests.js";
import { JsonCache } from "./tojson.js";
import { JinjaError, type Kwargs } from "./values.js";
import { GenerationTracker, type GenerationSpan } from "./generation.js";
import { BoundedCache } from "../bounded-cache.js";
import { AttrMemos } from "./attr-memo.js";

export { PyFloat } from "./py-float.js";
export type { RenderLimits } from "./limits.js";
export { DEFAULT_LIMITS } from "./limits.js";
export { freezeDeep, freezeDeepFrom, isDeepFrozen, markedDeepFrozen } from "./tojson.js";
export { KnownEscapes, freezeMarked, freezeNewMarked } from "./deep-frozen-marks.js";
export type { GenerationSpan } from "./generation.js";

export interface RenderCallOptions {
  /** Clock for strftime_now (default: the system clock). */
  now?: () => Date;
  limits?: Partial<RenderLimits>;
  /** Receives the [start, end) of every `{% generation %}` block's text (transformers' assistant mask). */
  generationSpans?: GenerationSpan[];
}

export interface CompiledTemplate {
  readonly source: string;
  render(context: Record<string, unknown>, options?: RenderCallOptions): string;
}

/** Filters and tests by name, for map('upper'), select('odd')...; the same for every render. */
function callFilter(this: FilterEnv, name: string, value: unknown, args: unknown[], kwargs: Kwargs): unknown {
  const resolved = FILTER_ALIASES[name] ?? name;
  const f = Object.prototype.hasOwnProperty.call(FILTERS, resolved) ? FILTERS[resolved] : undefined;
  if (f === undefined) throw new JinjaError("TemplateRuntimeError", `No filter named '${name}' found.`);
  return f(value, args, kwargs, this);
}
function callTest(name: string, value: unknown, args: unknown[]): boolean {
  const t = Object.prototype.hasOwnProperty.call(TESTS, name) ? TESTS[name] : undefined;
  if (t === undefined) throw new JinjaError("TemplateRuntimeError", `No test named '${name}' found.`);
  return t(value, args);
}

/** Map anything thrown during a render to a ChatwireError with a one-line message. */
function renderError(e: unknown): ChatwireError {
  if (e instanceof ChatwireError) return e;
  if (e instanceof JinjaError) return new ChatwireError("template_error", e.message);
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new ChatwireError("limit_exceeded", "template recursion exhausted the JavaScript stack");
  }
  // A backstop: every builder charges the budget first, but should one slip through, V8's own size
  // limits surface as this (catchable) RangeError, and it is a limit, not a template bug.
  if (e instanceof RangeError && /invalid (string|array|typed array) length|allocation failed/i.test(e.message)) {
    return new ChatwireError("limit_exceeded", `template built a value too large for the JavaScript engine (${e.message})`);
  }
  return new ChatwireError("template_error", e instanceof Error ? e.message : String(e));
}

class Compiled implements CompiledTemplate {
  constructor(
    readonly source: string,
    private readonly program: Stmt,
    private readonly memos: AttrMemos,
  ) {}

  render(context: Record<string, unknown>, options: RenderCallOptions = {}): string {
    const limits: RenderLimits = options.limits ? mergeLimits(options.limits) : DEFAULT_LIMITS;
    const budget = new RenderBudget(limits, options.now);
    const json = new JsonCache();
    const out: string[] = [];
    const rt: Runtime = {
      out,
      budget,
      context,
      globals: GLOBALS,
      env: { json, filter: callFilter, test: callTest },
      json,
      ...(options.generationSpans !== undefined && { generation: new GenerationTracker(out, options.generationSpans) }),
    };
    const root = new Frame(rt, null);
    try {
      withBudget(budget, () => this.program(root));
    } catch (e) {
      throw renderError(e);
    } finally {
      this.memos.clear();
    }
    return rt.out.join("");
  }
}

/** Caller limits over the defaults; a missing or non-numeric field keeps its default (never "no limit" by accident). */
function mergeLimits(given: Partial<RenderLimits>): RenderLimits {
  const out: RenderLimits = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as Array<keyof RenderLimits>) {
    const v = given[key];
    if (typeof v === "number" && !Number.isNaN(v)) out[key] = v;
  }
  return out;
}

/**
 * Longest template source compiled (code units). The largest real chat templates are under 20 KB;
 * compiling is linear, and this bounds its time and memory for hostile files (100k macros: refused).
 */
export const MAX_TEMPLATE_LENGTH = 256 * 1024;

/**
 * Compiled templates by source text, bounded by bytes too: measured as heap after GC, 100 distinct
 * Qwen3 templates (4 KB of source each) loaded and rendered held 21 bytes a source character with
 * every cache a template fills (this one, probes, caps), so a compiled one is taken to weigh 24.
 */
const TEMPLATE_BYTES_PER_CHAR = 24;
const cache = new BoundedCache<string, CompiledTemplate>(256, 64 << 20, (source) => 4096 + TEMPLATE_BYTES_PER_CHAR * source.length);

/** Parse and compile a chat template once; later calls with the same source reuse it. */
export function compileTemplate(source: string): CompiledTemplate {
  return cache.get(source, compileNew);
}

function compileNew(source: string): CompiledTemplate {
  if (source.length > MAX_TEMPLATE_LENGTH) {
    throw new ChatwireError("limit_exceeded", `template source is ${source.length} characters, over the limit of ${MAX_TEMPLATE_LENGTH}`);
  }
  let program: Stmt;
  const memos = new AttrMemos();
  try {
    program = compileProgram(parseTemplate(source), memos);
  } catch (e) {
    if (e instanceof ChatwireError) throw e;
    const message = e instanceof CompileError || e instanceof Error ? e.message : String(e);
    throw new ChatwireError("invalid_template", message);
  }
  return new Compiled(source, program, memos);
}

