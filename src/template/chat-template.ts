/**
 * A loaded chat template: renders OpenAI-shaped requests into the model's prompt (byte-identical to
 * transformers) and parses the model's completions back, with the template's own tool-call format.
 */
import { ChatwireError, invalidRequest } from "../errors.js";
import { flatCopy } from "../flat-copy.js";
import { detectFormat, getFormat } from "../formats/index.js";
import type { FormatId } from "../formats/types.js";
import { compileTemplate, type GenerationSpan, type RenderCallOptions, type RenderLimits } from "../jinja/index.js";
import { createStreamParser, parseCompletion, type ParseOptions } from "../parse/index.js";
import { normalizeConversation, normalizeRequest, type Conversation } from "../request/index.js";
import { isObject } from "../request/is-object.js";
import type { TemplateInfo } from "../request/message-rules.js";
import type { ParseResult, RequestInput, StreamParser } from "../types.js";
import {
  leadsWithSystem,
  partRole,
  probeReadsContentParts,
  probeReadsContentPartsIn,
  probeRendersToolDefinitions,
  probeSupportsSystem,
  probeToolCalls,
  sourceCaps,
  TOOL_CALL_SHAPES,
  type PartRole,
  type TemplateCaps,
} from "./caps.js";
import type { LoadedTemplate } from "./config.js";
import type { ResponseSchema, ResponseTemplate } from "../response-template/types.js";
import { chooseFormat, type ChosenFormat } from "../response-template/choose.js";
import { compileResponseTemplate } from "../response-template/compile.js";

import type { FormatDescription } from "../parse/language.js";
import { buildContext } from "./context.js";
import { cutAtTag, markFinalMessage } from "./continue-final.js";
import { renderInOtherShape } from "./shape-fallback.js";
import { compileAtLoad } from "./compile-at-load.js";
import { hasHistoryCalls, polyfillMessages, polyfillPlan, type PolyfillMode, type PolyfillPlan } from "./polyfill.js";
import { polyfillFormat } from "./polyfill-format.js";
import { requestVariables } from "../request/variables.js";
import { renderTokens, type ChatTokenizer, type RenderTokensOptions, type TokenizedPrompt } from "../tokens/render-tokens.js";

export interface RenderOptions {
  /** Append the assistant turn header so the model answers (default true; false with continueFinalMessage). */
  addGenerationPrompt?: boolean;
  /** Leave the final (assistant) message open for the model to continue; a string names the field to continue. */
  continueFinalMessage?: boolean | string;
  /** Extra template variables: `enable_thinking`, `reasoning_effort`, `builtin_tools`, `documents`, ... */
  variables?: Record<string, unknown>;
  /** The clock behind `strftime_now` (templates that print today's date). */
  now?: Date | (() => Date);
  limits?: Partial<RenderLimits>;
  /** Told about what normalisation accepted but flagged (tool-call arguments that are not JSON, ...). */
  onWarning?: (message: string) => void;
  /**
   * Tool calling for templates without it (docs/polyfills.md): `auto` (default) when the request has
   * tools and the template's caps say it does not support them, `always` whenever the request has
   * tools, `never` to render exactly what the template does with them (as transformers would).
   */
  polyfill?: PolyfillMode;
  /** Receives the [start, end) of each `{% generation %}` block's text (src/tokens: assistant masks). */
  generationSpans?: GenerationSpan[];
}

export interface TemplateParseOptions extends ParseOptions {
  /** How the prompt was rendered (variables such as enable_thinking change where the output starts). */
  render?: RenderOptions;
}

/** How many characters of the prompt's end the parser gets, to see a generation prompt that opened `<think>`. */
/** How many characters of the prompt's end tell whether the generation prompt opened reasoning. */
export const PROMPT_SUFFIX_LENGTH = 200;

/**
 * Options that do not tell two prompt ends apart: warnings, and the two that only generation prompts are
 * kept for (addGenerationPrompt not false, no continueFinalMessage) and that promptSuffix always sets so.
 */
const IGNORED_FOR_PROMPT_END = new Set(["onWarning", "addGenerationPrompt", "continueFinalMessage"]);

/** Render options equal for the prompt's end: the same keys with the same values. */
function sameRenderOptions(a: RenderOptions, b: RenderOptions): boolean {
  const keys = (o: RenderOptions) => Object.keys(o).filter((k) => !IGNORED_FOR_PROMPT_END.has(k) && o[k as keyof RenderOptions] !== undefined);
  const ka = keys(a);
  return ka.length === keys(b).length && ka.every((k) => a[k as keyof RenderOptions] === b[k as keyof RenderOptions]);
}

export class ChatTemplate {
  /** The template text: the `tool_use` variant when there is one (it carries the tool syntax), else `default`. */
  readonly source: string;
  /** The tool-call format its completions are parsed with. */
  readonly format: FormatId;
  /** Every variant by name (`default`, `tool_use`, ...); most templates have only `default`. */
  readonly variants: Readonly<Record<string, string>>;
  readonly specialTokens: Readonly<Record<string, string>>;
  /** Where it was loaded from: a path, `builtin:<name>` or `object`. */
  readonly origin: string;
  /** The config's `response_template` (transformers 5.x), validated; docs/response-templates.md. */
  readonly responseTemplate: ResponseTemplate | undefined;
  /** The config's older `response_schema` (x-regex JSON Schema), as data (not compiled). */
  readonly responseSchema: ResponseSchema | undefined;
  private readonly forcedVariant: string | undefined;
  private responseFormatValue: ChosenFormat | null | undefined;
  private capsValue: TemplateCaps | undefined;
  /** Per variant text: what normalisation needs, built once (renders are hot; this keeps them lean). */
  private readonly infos = new Map<string, TemplateInfo>();
  /** Per variant text: the probed caps (the probe cache is keyed by the whole text; this avoids rehashing it). */
  private readonly capsBySource = new Map<string, TemplateCaps>();
  /** The end of the last generation prompt rendered for each request object, and the options it had. */
  private readonly lastPromptEnd = new WeakMap<object, { options: RenderOptions; suffix: string }>();

  constructor(loaded: LoadedTemplate, options: { templateName?: string } = {}) {
    this.variants = Object.freeze({ ...loaded.variants });
    this.specialTokens = Object.freeze({ ...loaded.specialTokens });
    this.origin = loaded.origin;
    this.responseTemplate = loaded.responseTemplate;
    this.responseSchema = loaded.responseSchema;
    const has = (name: string) => Object.prototype.hasOwnProperty.call(this.variants, name);
    if (options.templateName !== undefined && (typeof options.templateName !== "string" || !has(options.templateName))) {
      throw new ChatwireError(
        "invalid_template",
        `${this.origin}: no chat template named ${JSON.stringify(options.templateName)} (has ${Object.keys(this.variants).join(", ")})`,
      );
    }
    this.forcedVariant = options.templateName;
    const primary = this.forcedVariant ?? (has("tool_use") ? "tool_use" : has("default") ? "default" : undefined);
    if (primary === undefined) {
      throw new ChatwireError(
        "invalid_template",
        `${this.origin}: multiple chat templates with no default (${Object.keys(this.variants).sort().join(", ")}); choose one with templateName`,
      );
    }
    this.source = this.variants[primary] as string;
    const files = loaded.files ?? {};
    for (const [name, text] of Object.entries(this.variants)) compileAtLoad(this.origin, name, text, Object.hasOwn(files, name) ? files[name] : undefined);
    this.format = detectFormat(this.source) ?? "json-block";
  }

  /** Capabilities of `source` (probed once per template text and cached). */
  get caps(): TemplateCaps {
    this.capsValue ??= this.capsOf(this.source);
    return this.capsValue;
  }

  /** Renders a Chat Completions or Responses request body into the prompt text. */
  render<R>(request: R & RequestInput<R>, options: RenderOptions = {}): string {
    const source = this.variantFor(request);
    const info = this.templateInfo(source);
    // Messages made for an earlier render of the same messages may be shared (deeply frozen), except
    // where continue_final_message marks the last one in place.
    const conversation = normalizeConversation(request, info, !options.continueFinalMessage);
    if (options.onWarning !== undefined) conversation.warnings.forEach(options.onWarning);
    const spans = options.generationSpans;
    const spansBefore = spans?.length ?? 0;
    let prompt: string;
    try {
      prompt = this.renderConversation(source, conversation, request, options);
    } catch (failure) {
      // The template rejected the probed tool-call shape on this request: try the others (shape-fallback.ts).
      prompt = renderInOtherShape(failure, info, conversation.messages, (shaped) => {
        if (spans !== undefined) spans.length = spansBefore; // a failed render may have recorded some
        return this.renderConversation(source, normalizeRequest(request, shaped), request, options);
      });
    }
    if (typeof request === "object" && request !== null && options.addGenerationPrompt !== false && !options.continueFinalMessage) {
      // A copy, not a slice: a slice keeps the whole prompt alive as long as the entry, and V8's young
      // generation GC keeps (and promotes) a WeakMap's values until a full GC even when their keys die
      // young, so every render of a caller's new request object moved its whole prompt to the old
      // generation (issue 19: the plain-objects loop's scavenges took 15x as long, with full GCs).
      this.lastPromptEnd.set(request, { options, suffix: flatCopy(prompt.slice(-PROMPT_SUFFIX_LENGTH)) });
    }
    return prompt;
  }

  /**
   * How the generation prompt for `request` ends (its last PROMPT_SUFFIX_LENGTH characters), which
   * tells a parser or grammar whether the model starts inside reasoning. Taken from the last render of
   * this very request object with the same options when there was one (a library caller renders, sends,
   * then parses: the prompt the model continued, with no second render); otherwise rendered now.
   * Undefined when the template cannot render the request (output is then read as starting outside
   * reasoning).
   */
  promptSuffix(request: unknown, render: RenderOptions = {}): string | undefined {
    if (typeof request === "object" && request !== null) {
      const last = this.lastPromptEnd.get(request);
      if (last !== undefined && sameRenderOptions(last.options, render)) return last.suffix;
    }
    // Without messages (no request, or only `{tools}`), a one-message conversation still shows how the
    // generation prompt ends.
    const hasTurns = isObject(request) && (request.messages !== undefined || request.input !== undefined);
    const body = hasTurns ? request : { ...(isObject(request) ? request : {}), messages: [{ role: "user", content: "" }] };
    try {
      return this.render(body, { ...render, addGenerationPrompt: true, continueFinalMessage: false }).slice(-PROMPT_SUFFIX_LENGTH);
    } catch {
      return undefined;
    }
  }

  /** Token ids of the prompt, with provenance (src/tokens: renderTokens; `tokenizer` from loadTokenizer). */
  renderTokens(request: unknown, tokenizer: ChatTokenizer, options: RenderTokensOptions<RenderOptions> = {}): TokenizedPrompt {
    return renderTokens(this, request, tokenizer, options);
  }

  /** Normalises a request for this template without rendering it (what the template will be given). */
  normalize<R>(request: R & RequestInput<R>): Conversation {
    return normalizeRequest(request, this.templateInfo(this.variantFor(request)));
  }

  /**
   * The format a declared `response_template` parses with (docs/response-templates.md, "Parse"): the
   * detected family when it speaks the declared syntax, else the compiled template. Undefined when the
   * config declares none, or its template does not compile (then the family parses; `caps` says why).
   */
  get responseFormat(): ChosenFormat | undefined {
    if (this.responseFormatValue === undefined) {
      const compiled = this.responseTemplate === undefined ? undefined : compileResponseTemplate(this.responseTemplate);
      this.responseFormatValue = compiled?.ok === true ? chooseFormat(getFormat(this.format), compiled.format) : null;
    }
    return this.responseFormatValue ?? undefined;
  }

  /**
   * What parse, streamParser and the grammars (gbnfForTemplate, the server) use: the response format for
   * the template's own format (the compiled declaration when the family does not speak it), else
   * formatFor's (json-block under the tool polyfill, with the reasoning markers of the template's own
   * format: src/template/polyfill-format.ts).
   */
  parseFormatFor(request?: unknown, render?: RenderOptions): FormatId | FormatDescription {
    const id = this.formatFor(request, render);
    if (id === this.format) return this.responseFormat?.format ?? id;
    return id === "json-block" ? polyfillFormat(this.format) : id;
  }

  /** parseFormatFor as a description (a registered family by id). */
  outputFormat(request?: unknown, render?: RenderOptions): FormatDescription {
    const format = this.parseFormatFor(request, render);
    return typeof format === "string" ? getFormat(format) : format;
  }

  /** Parses a whole completion into an assistant message with validated tool calls. */
  parse(completion: string, request?: unknown, options: TemplateParseOptions = {}): ParseResult {
    const { render, ...parseOptions } = options;
    return parseCompletion(this.parseFormatFor(request, render), completion, request, this.withPromptSuffix(parseOptions, request, render));
  }

  /** An incremental parser for a streamed completion: push deltas, then end(). */
  streamParser(request?: unknown, options: TemplateParseOptions = {}): StreamParser {
    const { render, ...parseOptions } = options;
    return createStreamParser(this.parseFormatFor(request, render), request, this.withPromptSuffix(parseOptions, request, render));
  }

  /**
   * The format a completion of `request` is written in: json-block when the tool polyfill told the model
   * to answer that way (docs/polyfills.md), else the template's own.
   */
  formatFor(request?: unknown, render: RenderOptions = {}): FormatId {
    let plan: PolyfillPlan | undefined;
    try {
      const source = this.variantFor(request);
      const tools = isObject(request) ? request.tools : undefined;
      const hasTools = Array.isArray(tools) && tools.length > 0;
      const messages = isObject(request) ? (request.messages ?? request.input) : undefined;
      const hasCalls = Array.isArray(messages) && hasHistoryCalls(messages);
      plan = this.planFor(source, render.polyfill, hasTools, hasCalls, () => this.startsWithSystem(request));
    } catch {
      return this.format; // no variant for this request: render raises the real error
    }
    return plan?.jsonBlock === true ? "json-block" : this.format;
  }

  /** The normalised request starts with a system message (as render sees it); false when it does not normalise. */
  private startsWithSystem(request: unknown): boolean {
    try {
      return leadsWithSystem(this.normalize(request as RequestInput<unknown>).messages);
    } catch {
      return false; // render raises the real error
    }
  }

  /**
   * What the polyfill adds for this template and request (undefined: nothing). `system`: the conversation
   * starts with a system message, so the definitions answer probed after one applies (asked only when
   * the two answers differ).
   */
  private planFor(source: string, mode: PolyfillMode | undefined, hasTools: boolean, hasCalls: boolean, system: () => boolean): PolyfillPlan | undefined {
    return polyfillPlan(mode, hasTools, hasCalls, () => {
      const caps = this.capsOf(source);
      if (caps.rendersToolDefinitions === caps.rendersToolDefinitionsAfterSystem || !system()) return caps;
      return { ...caps, rendersToolDefinitions: caps.rendersToolDefinitionsAfterSystem };
    });
  }

  private withPromptSuffix(options: ParseOptions, request: unknown, render: RenderOptions | undefined): ParseOptions {
    if (options.promptSuffix !== undefined) return options;
    const promptSuffix = this.promptSuffix(request, render);
    return promptSuffix === undefined ? options : { ...options, promptSuffix };
  }

  private renderConversation(source: string, conversation: Conversation, request: unknown, options: RenderOptions): string {
    const continueField = options.continueFinalMessage === true ? "content" : options.continueFinalMessage || undefined;
    if (continueField !== undefined && options.addGenerationPrompt === true) {
      throw invalidRequest(
        "addGenerationPrompt",
        "continue_final_message and add_generation_prompt are not compatible. Use continue_final_message when you want the model to continue the final message, and add_generation_prompt when you want to add a header that will prompt it to start a new assistant message instead.",
      );
    }
    const plan = this.planFor(source, options.polyfill, conversation.tools !== undefined, hasHistoryCalls(conversation.messages), () => leadsWithSystem(conversation.messages));
    if (plan !== undefined) {
      const parallel = !(isObject(request) && request.parallel_tool_calls === false);
      conversation = { ...conversation, messages: polyfillMessages(conversation, plan, this.capsOf(source).supportsSystem, parallel) };
      // With the json-block instructions the template sees None: the tools are described in the messages.
      if (plan.jsonBlock) delete conversation.tools;
    }
    const finalText = continueField !== undefined ? markFinalMessage(conversation.messages, continueField, source) : undefined;
    // Request fields templates read (`documents`, `reasoning_effort`), then vLLM-style `chat_template_kwargs`
    // in the body; explicit options win.
    const bodyVariables = requestVariables(request);
    const context = buildContext({
      messages: conversation.messages,
      tools: conversation.tools,
      addGenerationPrompt: continueField !== undefined ? false : (options.addGenerationPrompt ?? true),
      specialTokens: this.specialTokens,
      variables: { ...bodyVariables, ...options.variables },
    });
    const renderOptions: RenderCallOptions = {};
    const now = options.now;
    if (now !== undefined) renderOptions.now = typeof now === "function" ? now : () => now;
    if (options.limits !== undefined) renderOptions.limits = options.limits;
    if (options.generationSpans !== undefined) renderOptions.generationSpans = options.generationSpans;
    const rendered = this.run(source, context, renderOptions);
    return finalText !== undefined ? cutAtTag(rendered, finalText) : rendered;
  }

  private run(source: string, context: Record<string, unknown>, options: RenderCallOptions): string {
    try {
      // compileTemplate caches by source text, so this compiles each template once per process.
      return compileTemplate(source).render(context, options);
    } catch (err) {
      if (err instanceof ChatwireError) throw err;
      throw new ChatwireError("template_error", err instanceof Error ? err.message : String(err));
    }
  }

  /** transformers' choice: `tool_use` when the request has tools and the model has that variant, else `default`. */
  private variantFor(request: unknown): string {
    if (this.forcedVariant !== undefined) return this.source;
    const tools = isObject(request) ? request.tools : undefined;
    const name = Array.isArray(tools) && tools.length > 0 && Object.prototype.hasOwnProperty.call(this.variants, "tool_use") ? "tool_use" : "default";
    const source = Object.prototype.hasOwnProperty.call(this.variants, name) ? this.variants[name] : undefined;
    if (source === undefined) {
      throw new ChatwireError(
        "invalid_template",
        `${this.origin}: This model has multiple chat templates with no default specified! Available template names are ${Object.keys(this.variants).sort().join(", ")}.`,
      );
    }
    return source;
  }

  /** What normalisation needs; readsContentParts is probed only when a request has a content-part array. */
  private templateInfo(source: string): TemplateInfo {
    let info = this.infos.get(source);
    if (info === undefined) {
      const key = this.probeKey(source);
      const probe = this.probe(source);
      let partsAnswer: boolean | undefined;
      let toolAnswer: ReturnType<typeof probeToolCalls> | undefined;
      const partsByRole = new Map<PartRole, boolean>();
      const roles = new Map<string, boolean>();
      info = {
        knowsDeveloperRole: source.includes("developer"),
        // Probed on first use, then remembered here: the probe cache's key is the whole template text,
        // too long to rebuild and hash for every message of every render.
        get readsContentParts() {
          return (partsAnswer ??= probeReadsContentParts(key, probe));
        },
        readsContentPartsIn: (role) => {
          const probed = partRole(role);
          let answer = partsByRole.get(probed);
          if (answer === undefined) {
            // The tool-result probe answers a call made in the shape this template gets calls in.
            const shape = (toolAnswer ??= probeToolCalls(key, probe)).shape ?? TOOL_CALL_SHAPES[0]!;
            answer = probeReadsContentPartsIn(key, probe, probed, shape);
            partsByRole.set(probed, answer);
          }
          return answer;
        },
        get readsArgumentsAsString() {
          return (toolAnswer ??= probeToolCalls(key, probe)).shape?.argumentsAsString === true;
        },
        get callContentAsNone() {
          return (toolAnswer ??= probeToolCalls(key, probe)).shape?.contentNone === true;
        },
        get callsOnePerMessage() {
          return (toolAnswer ??= probeToolCalls(key, probe)).onePerMessage;
        },
        // A role the source names as a string literal (`'ipython'`, `"observation"`) is one it handles.
        namesRole: (role) => {
          let named = roles.get(role);
          if (named === undefined) {
            named = source.includes(`'${role}'`) || source.includes(`"${role}"`);
            if (roles.size < 64) roles.set(role, named);
          }
          return named;
        },
      };
      this.infos.set(source, info);
    }
    return info;
  }

  private capsOf(source: string): TemplateCaps {
    let caps = this.capsBySource.get(source);
    if (caps === undefined) {
      caps = Object.freeze(this.probeCaps(source));
      this.capsBySource.set(source, caps);
    }
    return caps;
  }

  private probeCaps(source: string): TemplateCaps {
    const key = this.probeKey(source);
    const tools = probeToolCalls(key, this.probe(source));
    return {
      ...sourceCaps(source),
      readsContentParts: this.templateInfo(source).readsContentParts,
      contentPartsByRole: Object.freeze(this.contentPartsByRole(this.templateInfo(source))),
      rendersToolDefinitions: probeRendersToolDefinitions(key, this.probe(source)),
      rendersToolDefinitionsAfterSystem: probeRendersToolDefinitions(key, this.probe(source), true),
      rendersToolCalls: tools.shape !== undefined,
      rendersToolResults: tools.rendersResults,
      readsArgumentsAsString: tools.shape?.argumentsAsString === true,
      callContentAsNone: tools.shape?.contentNone === true,
      callsOnePerMessage: tools.onePerMessage,
      supportsSystem: probeSupportsSystem(key, this.probe(source)),
    };
  }

  private contentPartsByRole(info: TemplateInfo): Record<PartRole, boolean> {
    const reads = (role: PartRole) => info.readsContentPartsIn?.(role) ?? info.readsContentParts;
    return { user: info.readsContentParts, system: reads("system"), assistant: reads("assistant"), tool: reads("tool") };
  }

  /** Probe answers depend on the template text and the special tokens it prints. */
  private probeKey(source: string): string {
    return `${JSON.stringify(this.specialTokens)}\u0000${source}`;
  }

  /** A render of raw messages (no normalisation) and tools (None unless given) with no generation prompt, as the spec's probe. */
  private probe(source: string): (messages: Record<string, unknown>[], tools?: unknown[]) => string {
    return (messages, tools) =>
      this.run(source, buildContext({ messages, tools, addGenerationPrompt: false, specialTokens: this.specialTokens }), {});
  }
}
