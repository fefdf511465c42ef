/**
 * `chatwire check` as a library call: a conformance report for a chat template (docs/check.md).
 * Everything runs in process except the optional reference renderer, which the caller supplies.
 */
import type { FormatId } from "../formats/index.js";
import type { ChatTemplate } from "../template/index.js";
import { polyfillUse } from "../template/polyfill-note.js";
import { battery } from "./battery.js";
import { CheckContext } from "./context.js";
import { checkPrefix, checkRenders } from "./checks-render.js";
import { checkReference, type ReferenceRenderer } from "./checks-reference.js";
import type { ChatTokenizer } from "../tokens/index.js";
import { checkResponseTemplate } from "./checks-response-template.js";
import { checkTokenizerOf, checkTokens, type CheckTokenizer } from "./checks-tokens.js";
import { checkEmptyAssistantTurn, checkHistoryCalls, checkHistoryReasoning, checkReconstruction, checkToolList, checkToolResults, hasToolSyntax } from "./checks-tools.js";
import type { CheckId, CheckReport } from "./types.js";

export type * from "./types.js";
export type { CheckTokenizer } from "./checks-tokens.js";
export type { ReferenceJob, ReferenceRenderer, ReferenceResult } from "./checks-reference.js";
export { jobsToJson } from "./checks-reference.js";
export { formatReport } from "./text-report.js";

export interface CheckOptions {
  /** Parse completions in this format instead of the detected one. */
  format?: FormatId;
  /** Adds the token checks: what `loadTokenizer` returns, or a CheckTokenizer of your own. */
  tokenizer?: ChatTokenizer | CheckTokenizer;
  /** Adds the byte comparison with transformers. */
  reference?: ReferenceRenderer;
}

export async function checkTemplate(template: ChatTemplate, options: CheckOptions = {}): Promise<CheckReport> {
  const ctx = new CheckContext(template, options.format);
  const checks: CheckId[] = ["renders", "determinism", "clock", "none-printed", "prefix", "history-reasoning"];
  const conversations = checkRenders(ctx);
  checkPrefix(ctx);
  checkHistoryReasoning(ctx);
  if (hasToolSyntax(ctx)) {
    checkToolList(ctx);
    checkToolResults(ctx);
    checkHistoryCalls(ctx);
    checkReconstruction(ctx);
    checkEmptyAssistantTurn(ctx);
    checks.push("tool-list", "tool-results", "history-tool-calls", "reconstruction", "empty-assistant-turn");
  }
  if (template.responseTemplate !== undefined) {
    checkResponseTemplate(ctx);
    checks.push("response-template");
  }
  if (options.tokenizer !== undefined) {
    const prompts = battery(template.caps.variables).flatMap((c) => {
      const r = ctx.renderCase(c);
      return "prompt" in r ? [r.prompt] : [];
    });
    checkTokens(ctx, checkTokenizerOf(options.tokenizer), prompts);
    checks.push("special-tokens", "bos", "token-boundary");
  }
  if (options.reference !== undefined) {
    await checkReference(ctx, options.reference);
    checks.push("reference");
  }
  const caps = template.caps;
  const polyfill = polyfillUse(template);
  const count = (s: string) => ctx.findings.filter((f) => f.severity === s).length;
  return {
    version: 1,
    template: {
      origin: template.origin,
      ...(ctx.format === undefined ? {} : { format: ctx.format }),
      ...(polyfill === undefined ? {} : { polyfill }),
      caps: {
        supportsTools: caps.supportsTools,
        supportsSystem: caps.supportsSystem,
        readsContentParts: caps.readsContentParts,
        variables: [...caps.variables],
        ...(caps.reasoning === undefined ? {} : { reasoning: { start: caps.reasoning.start, end: caps.reasoning.end } }),
      },
    },
    conversations,
    findings: ctx.findings,
    summary: { errors: count("error"), warnings: count("warning"), infos: count("info"), checks },
  };
}
