/**
 * What a template can do, learnt from its source and from probe renders. Probes are real renders of a
 * tiny conversation; their answers are cached per (template text, special tokens), so each template is
 * probed once per process however many ChatTemplate objects or requests use it.
 */
import { detectFormat, detectReasoning } from "../formats/index.js";
import type { ReasoningMarkers } from "../formats/types.js";
import { BoundedCache } from "../bounded-cache.js";

export interface TemplateCaps {
  /** Prints content-part arrays itself (spec rule 7 probe); otherwise text parts are joined into a string. */
  readsContentParts: boolean;
  /** The source mentions `developer`, so that role is kept instead of becoming `system`. */
  knowsDeveloperRole: boolean;
  /** The source mentions `tools`: tool definitions reach the prompt. */
  supportsTools: boolean;
  /** Tool-call arguments reach the template as JSON strings, not objects (probe; functionary v3.2). */
  readsArgumentsAsString: boolean;
  /** A system message's text reaches the prompt without the template raising (probe). */
  supportsSystem: boolean;
  /** Extra variables the template reads (`enable_thinking`, `reasoning_effort`, ...), for `variables`. */
  variables: string[];
  /** The reasoning markers the template uses, when it has any. */
  reasoning?: ReasoningMarkers;
}

/** Renders messages with no tools and no generation prompt; throws what the template throws. */
export type ProbeRender = (messages: Record<string, unknown>[]) => string;

const PROBE = "CHATWIRE_PROBE";
const KNOWN_VARIABLES = ["enable_thinking", "thinking", "reasoning_effort", "builtin_tools", "documents", "tools_in_user_message", "date_string", "custom_tools", "xml_tools", "python_tools", "keep_cots", "truncate_history_thinking"];

/** Probe answers by (kind, template text, special tokens). */
const probeAnswers = new BoundedCache<string, boolean>(1024);

function rendersWithout(probe: ProbeRender, messages: Record<string, unknown>[]): string | undefined {
  try {
    return probe(messages);
  } catch {
    return undefined; // a probe that raises answers "no"
  }
}

/** Spec rule 7: the probe text comes out, and not merely as part of a printed Python/JSON list. */
export function probeReadsContentParts(key: string, probe: ProbeRender): boolean {
  return probeAnswers.get(`parts\u0000${key}`, () => {
    const out = rendersWithout(probe, [{ role: "user", content: [{ type: "text", text: PROBE }] }]);
    return out !== undefined && out.includes(PROBE) && !out.includes(`'text': '${PROBE}'`) && !out.includes(`"text": "${PROBE}"`);
  });
}

/** Spec rule 4's exception: raises on object `arguments` but renders the same call given the JSON string. */
export function probeReadsArgumentsAsString(key: string, probe: ProbeRender): boolean {
  return probeAnswers.get(`arguments\u0000${key}`, () => {
    const withArguments = (args: unknown) => [
      { role: "user", content: "x" },
      { role: "assistant", content: "", tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: args } }] },
    ];
    return rendersWithout(probe, withArguments({ a: 1 })) === undefined && rendersWithout(probe, withArguments('{"a": 1}')) !== undefined;
  });
}

export function probeSupportsSystem(key: string, probe: ProbeRender): boolean {
  return probeAnswers.get(`system\u0000${key}`, () => {
    const out = rendersWithout(probe, [
      { role: "system", content: PROBE },
      { role: "user", content: "Hi" },
    ]);
    return out !== undefined && out.includes(PROBE);
  });
}

type SourceCaps = Pick<TemplateCaps, "knowsDeveloperRole" | "supportsTools" | "variables" | "reasoning">;
const sourceCache = new BoundedCache<string, SourceCaps>(1024);

/** The caps that only need the source text (asked on every render, so computed once per template text). */
export function sourceCaps(source: string): SourceCaps {
  // Frozen: the object is shared by every render of that text, and nobody may change it.
  return sourceCache.get(source, (text) => Object.freeze(computeSourceCaps(text)));
}

function computeSourceCaps(source: string): SourceCaps {
  const caps: SourceCaps = {
    knowsDeveloperRole: source.includes("developer"),
    supportsTools: /\btools\b/.test(source) || detectFormat(source) !== undefined,
    variables: KNOWN_VARIABLES.filter((name) => new RegExp(`\\b${name}\\b`).test(source)),
  };
  const reasoning = detectReasoning(source);
  if (reasoning !== undefined) caps.reasoning = reasoning;
  return caps;
}
