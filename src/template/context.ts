/**
 * The variables a chat template sees, built the way transformers' `apply_chat_template` /
 * `render_jinja_template` builds them: `messages`, `tools` (None when absent), `documents` (None unless
 * given), `add_generation_prompt`, then the tokenizer's special tokens (`bos_token`, `eos_token`, ...),
 * then the caller's extra variables, which override special tokens as Python's kwargs do.
 * `null` is Python's None for the runtime; key order follows Python's keyword order.
 */
import { invalidRequest } from "../errors.js";

/** Names transformers passes itself; setting one through `variables` is a TypeError in Python. */
const RESERVED = new Set(["messages", "tools", "add_generation_prompt", "continue_final_message", "conversation"]);

export interface ContextParts {
  messages: Record<string, unknown>[];
  tools: unknown[] | undefined;
  addGenerationPrompt: boolean;
  specialTokens: Record<string, string>;
  variables?: Record<string, unknown>;
}

export function buildContext(parts: ContextParts): Record<string, unknown> {
  const { documents = null, ...rest } = parts.variables ?? {};
  for (const key of Object.keys(rest)) {
    if (RESERVED.has(key)) throw invalidRequest(`variables.${key}`, "is set by chatwire from the request and options");
  }
  return {
    messages: parts.messages,
    tools: parts.tools ?? null,
    documents,
    add_generation_prompt: parts.addGenerationPrompt,
    ...parts.specialTokens,
    ...rest,
  };
}
