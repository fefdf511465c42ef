/**
 * The comparison the agreement test makes between transformers' `parse_response` (a reference in
 * fixtures/response-templates/references.json) and chatwire's parse: the calls (name, arguments as JSON
 * values), the content and the reasoning. Both sides are compared trimmed, and empty text is absent:
 * transformers' text parser strips every region (its `strip` default) and drops empty keys, while
 * chatwire keeps the model's whitespace (docs/response-templates.md).
 */
import type { ParseResult } from "../../src/types.js";

export interface Reference {
  template: string;
  source: string;
  name: string;
  completion: string;
  promptSuffix: string;
  tools: unknown[] | null;
  transformers: { message: TransformersMessage } | { error: string };
}

interface TransformersMessage {
  content?: string;
  thinking?: string;
  tool_calls?: { function: { name: string; arguments: unknown } }[];
}

export interface Compared {
  content: string | null;
  reasoning: string | null;
  calls: { name: string; arguments: unknown }[];
}

const text = (s: string | null | undefined): string | null => (s === undefined || s === null || s.trim() === "" ? null : s.trim());

export function fromTransformers(m: TransformersMessage): Compared {
  return { content: text(m.content), reasoning: text(m.thinking), calls: (m.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments })) };
}

export function fromChatwire(r: ParseResult): Compared {
  return {
    content: text(r.message.content),
    reasoning: text(r.message.reasoning_content),
    calls: (r.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown })),
  };
}

/** The parts that differ, each as `part: transformers ... / chatwire ...`. */
export function differences(a: Compared, b: Compared): string[] {
  const out: string[] = [];
  for (const part of ["content", "reasoning", "calls"] as const) {
    const x = JSON.stringify(a[part]);
    const y = JSON.stringify(b[part]);
    if (x !== y) out.push(`${part}: transformers ${x} / chatwire ${y}`);
  }
  return out;
}
