/**
 * What every check needs: the template, a render that never throws (it records what was raised), and
 * the place findings go. Renders always use `polyfill: "never"` and a fixed clock: the check is about
 * the template itself, and two renders must be comparable.
 */
import { detectFormat, type FormatId } from "../formats/index.js";
import { parseCompletion } from "../parse/index.js";
import type { ChatTemplate, RenderOptions } from "../template/index.js";
import type { ParseResult } from "../types.js";
import type { BatteryCase } from "./battery.js";
import type { Finding } from "./types.js";

/** The clock every render of the check uses (any fixed date: the determinism check compares renders). */
export const CHECK_NOW = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

export type Rendered = { prompt: string } | { error: string };

export class CheckContext {
  readonly findings: Finding[] = [];
  /**
   * The tool-call format completions are parsed with: the one detected from the source unless the caller
   * forces one; undefined when the source shows no known tool syntax (the template's own fallback,
   * json-block, is chatwire's polyfill, not something the template prints).
   */
  readonly format: FormatId | undefined;
  constructor(
    readonly template: ChatTemplate,
    format?: FormatId,
  ) {
    this.format = format ?? detectFormat(template.source);
  }

  parse(text: string, request: unknown, promptSuffix: string | undefined): ParseResult {
    const options = promptSuffix === undefined ? {} : { promptSuffix };
    return this.format === undefined ? this.template.parse(text, request, options) : parseCompletion(this.format, text, request, options);
  }

  add(finding: Finding): void {
    this.findings.push(finding);
  }

  render(request: unknown, options: RenderOptions = {}): Rendered {
    try {
      return { prompt: this.template.render(request, { polyfill: "never", now: CHECK_NOW, ...options }) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  }

  renderCase(c: BatteryCase): Rendered {
    const options: RenderOptions = {};
    if (c.addGenerationPrompt !== undefined) options.addGenerationPrompt = c.addGenerationPrompt;
    if (c.continueFinalMessage !== undefined) options.continueFinalMessage = c.continueFinalMessage;
    if (c.variables !== undefined) options.variables = c.variables;
    return this.render(c.request, options);
  }
}

/** Up to `radius` characters either side of `offset`, for a finding's `bytes.context`. */
export function around(text: string, offset: number, radius = 40): string {
  return text.slice(Math.max(0, offset - radius), offset + radius);
}

/** The first offset where two strings differ (the shorter one's length when one is a prefix of the other). */
export function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
