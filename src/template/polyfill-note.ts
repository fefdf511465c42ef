/**
 * What the tool polyfill (docs/polyfills.md) does for this template when a request has tools, in the
 * words `detect` and `check` both print, so the two agree: nothing (the template shows tools itself),
 * the tool list added to a template that prints calls its own way, or the list with a json-block
 * instruction, and then completions parse as json-block.
 */
import type { ChatTemplate } from "./chat-template.js";
import { polyfillPlan } from "./polyfill.js";

export interface PolyfillUse {
  /** The tool list is added to the prompt. */
  definitions: boolean;
  /** The model is told to answer calls in a ```json block; completions parse as json-block. */
  jsonBlock: boolean;
  /** One sentence saying so. */
  note: string;
}

export function polyfillUse(template: ChatTemplate): PolyfillUse | undefined {
  const plan = polyfillPlan("auto", true, false, () => template.caps);
  if (plan === undefined) return undefined;
  const note = plan.jsonBlock
    ? "the template does not show tools: for a request with tools chatwire adds the tool list and a json-block calling instruction (the tool polyfill), and parses completions as json-block; --polyfill never turns it off"
    : "the template does not list tools: for a request with tools chatwire adds the tool list (the tool polyfill) and parses calls in the template's own format; --polyfill never turns it off";
  return { definitions: plan.definitions, jsonBlock: plan.jsonBlock, note };
}
