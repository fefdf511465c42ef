/**
 * What a template can do, learnt from its source and from probe renders. Probes are real renders of a
 * tiny conversation; their answers are cached per (template text, special tokens), so each template is
 * probed once per process however many ChatTemplate objects or requests use it.
 */
import { detectFormat, detectReasoning } from "../formats/index.js";
import type { ReasoningMarkers } from "../formats/types.js";
import { BoundedCache } from "../bounded-cache.js";

export interface TemplateCaps {
  /** Prints content-part arrays itself in user turns (spec rule 7 probe); otherwise text parts are joined into a string. */
  readsContentParts: boolean;
  /** The same per role (rule 7 probes each): `developer` follows `system`, tool-result roles follow `tool`. */
  contentPartsByRole: Readonly<Record<PartRole, boolean>>;
  /** The source mentions `developer`, so that role is kept instead of becoming `system`. */
  knowsDeveloperRole: boolean;
  /**
   * The source mentions `tools` or a known tool-call syntax. A hint only: what the polyfill adds is
   * decided by the three probed caps below.
   */
  supportsTools: boolean;
  /** Tool definitions (`tools`) reach the prompt: a probe tool's name is printed. */
  rendersToolDefinitions: boolean;
  /**
   * The same in a conversation that starts with a system message (functiongemma prints the tools only
   * inside one): the polyfill plan of such a request reads this answer instead.
   */
  rendersToolDefinitionsAfterSystem: boolean;
  /** Every tool call of the history reaches the prompt (name, argument keys and values), in some message shape. */
  rendersToolCalls: boolean;
  /** Tool results (`role: "tool"` messages) reach the prompt. */
  rendersToolResults: boolean;
  /** Tool-call arguments reach the template as JSON text, not objects (the tool-call probe; functionary v3.2, DeepSeek V3). */
  readsArgumentsAsString: boolean;
  /** An assistant message with tool calls and no text gets `content: None`, not `""` (the tool-call probe; DeepSeek V3). */
  callContentAsNone: boolean;
  /**
   * The template prints one call per assistant message (Llama 3.x raise on more, gpt-oss and GigaChat 3
   * drop the rest; the tool-call probe): messages with several calls are split into consecutive ones.
   */
  callsOnePerMessage: boolean;
  /** A system message's text reaches the prompt without the template raising (probe). */
  supportsSystem: boolean;
  /** Extra variables the template reads (`enable_thinking`, `reasoning_effort`, ...), for `variables`. */
  variables: string[];
  /** The reasoning markers the template uses, when it has any. */
  reasoning?: ReasoningMarkers;
}

/** Renders messages (and `tools`, None when absent) with no generation prompt; throws what the template throws. */
export type ProbeRender = (messages: Record<string, unknown>[], tools?: unknown[]) => string;

const PROBE = "CHATWIRE_PROBE";
const KNOWN_VARIABLES = ["enable_thinking", "thinking", "reasoning_effort", "builtin_tools", "documents", "tools_in_user_message", "date_string", "custom_tools", "xml_tools", "python_tools", "keep_cots", "truncate_history_thinking"];

/**
 * Probe answers by (kind, template text, special tokens): the key holds the template text, so the
 * bound is on its characters too (2 bytes each, plus the entry).
 */
const weighByKey = (key: string): number => 256 + 2 * key.length;
const probeAnswers = new BoundedCache<string, boolean>(1024, 16 << 20, weighByKey);

function rendersWithout(probe: ProbeRender, messages: Record<string, unknown>[], tools?: unknown[]): string | undefined {
  try {
    return probe(messages, tools);
  } catch {
    return undefined; // a probe that raises answers "no"
  }
}

/** The probe text comes out, and not merely as part of a printed Python/JSON list. */
function printsPartText(out: string | undefined): boolean {
  return out !== undefined && out.includes(PROBE) && !out.includes(`'text': '${PROBE}'`) && !out.includes(`"text": "${PROBE}"`);
}

/** Spec rule 7: a user message's text parts are printed (the answer for user turns). */
export function probeReadsContentParts(key: string, probe: ProbeRender): boolean {
  return probeAnswers.get(`parts\u0000${key}`, () => printsPartText(rendersWithout(probe, [{ role: "user", content: [{ type: "text", text: PROBE }] }])));
}

/**
 * The message shapes an assistant tool call can take (spec rule 3/4 and their exception), in order of
 * preference: OpenAI's `content: ""` with parsed arguments (what most templates want), then the
 * arguments' JSON text (templates that concatenate them), then `content: None` (templates that print
 * calls only when `content is none`), then both.
 */
export interface ToolCallShape {
  contentNone: boolean;
  argumentsAsString: boolean;
}
export const TOOL_CALL_SHAPES: readonly ToolCallShape[] = Object.freeze([
  Object.freeze({ contentNone: false, argumentsAsString: false }),
  Object.freeze({ contentNone: false, argumentsAsString: true }),
  Object.freeze({ contentNone: true, argumentsAsString: false }),
  Object.freeze({ contentNone: true, argumentsAsString: true }),
]);
const SHAPES = TOOL_CALL_SHAPES;

/** A tool the probes declare (its name differs from the called ones, so a printed name proves the call). */
const PROBE_TOOL = {
  type: "function",
  function: { name: "chatwire_probe_defined", description: "CHATWIRE_PROBE_DESCRIPTION", parameters: { type: "object", properties: {} } },
};
/**
 * Two assistant turns with one call each, each answered, written as a client's request reaches the
 * template after normalisation: calls with `id` (9 alphanumerics, as Mistral templates demand) and
 * `type`, results with `tool_call_id` and the called function's `name` (rule 5 adds it; functionary
 * v2.2 prints `message['name']` on tool turns and raises without it, which made every shape fail).
 */
const PROBE_CALLS = [
  { id: "a1b2c3d4e", name: "chatwire_probe_one", key: "chatwire_key_one", value: "CHATWIRE_VALUE_ONE", result: "CHATWIRE_RESULT_ONE" },
  { id: "f5g6h7i8j", name: "chatwire_probe_two", key: "chatwire_key_two", value: "CHATWIRE_VALUE_TWO", result: "CHATWIRE_RESULT_TWO" },
];

function callConversation(shape: ToolCallShape): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [{ role: "user", content: "x" }];
  for (const call of PROBE_CALLS) {
    const args = shape.argumentsAsString ? `{"${call.key}": "${call.value}"}` : { [call.key]: call.value };
    messages.push(
      { role: "assistant", content: shape.contentNone ? null : "", tool_calls: [{ id: call.id, type: "function", function: { name: call.name, arguments: args } }] },
      { role: "tool", tool_call_id: call.id, content: call.result, name: call.name },
    );
  }
  return messages;
}

const showsEveryCall = (out: string) => PROBE_CALLS.every((c) => out.includes(c.name) && out.includes(c.key) && out.includes(c.value));

/**
 * What the tool probes found: the shape under which every call is printed (undefined: none), whether
 * two calls in one message are both printed in that shape (else they must be split), and results.
 */
export interface ToolProbe {
  shape: ToolCallShape | undefined;
  onePerMessage: boolean;
  rendersResults: boolean;
}

/** The probe history with both calls in one assistant message, both answered. */
function parallelConversation(shape: ToolCallShape): Record<string, unknown>[] {
  const sequential = callConversation(shape);
  const calls = sequential.flatMap((m) => (Array.isArray(m.tool_calls) ? m.tool_calls : []));
  return [
    sequential[0]!,
    { role: "assistant", content: shape.contentNone ? null : "", tool_calls: calls },
    ...sequential.filter((m) => m.role === "tool"),
  ];
}
const toolProbes = new BoundedCache<string, ToolProbe>(1024, 16 << 20, (key) => 1024 + weighByKey(key));

/**
 * The first shape under which the template prints every call of the probe history (rendered with a
 * declared tool, since some templates need `tools` to print calls). Tool results are probed in that shape
 * (or the default one when no shape prints the calls).
 */
export function probeToolCalls(key: string, probe: ProbeRender): ToolProbe {
  return toolProbes.get(key, () => {
    let firstOut: string | undefined;
    for (const shape of SHAPES) {
      const out = rendersWithout(probe, callConversation(shape), [PROBE_TOOL]);
      if (shape === SHAPES[0]) firstOut = out;
      if (out !== undefined && showsEveryCall(out)) {
        const parallel = rendersWithout(probe, parallelConversation(shape), [PROBE_TOOL]);
        return Object.freeze({
          shape: Object.freeze({ ...shape }),
          onePerMessage: parallel === undefined || !showsEveryCall(parallel),
          rendersResults: PROBE_CALLS.every((c) => out.includes(c.result)),
        });
      }
    }
    return Object.freeze({
      shape: undefined,
      onePerMessage: false,
      rendersResults: firstOut !== undefined && PROBE_CALLS.every((c) => firstOut!.includes(c.result)),
    });
  });
}

/** The roles content parts are probed in; other roles take the answer of the nearest (partRole). */
export type PartRole = "user" | "system" | "assistant" | "tool";

/** `developer` is probed as `system`; tool-result roles (`tool`, `function`, `ipython`, ...) as `tool`. */
export function partRole(role: string): PartRole {
  if (role === "user" || role === "assistant" || role === "system") return role;
  return role === "developer" ? "system" : "tool";
}

/**
 * Spec rule 7, per role: the text parts of a message in that role are printed, in a conversation where
 * only that message has parts (a system turn before a user turn; an assistant answer after one; a tool
 * result answering a call made in `shape`, the tool-call probe's). Templates that print parts in user
 * turns do not all print them in the others: GLM 4.6, Mistral Small 3.2 and Kimi K2 concatenate tool
 * results, Gemma 4 does not read system parts.
 */
export function probeReadsContentPartsIn(key: string, probe: ProbeRender, role: PartRole, shape: ToolCallShape): boolean {
  if (role === "user") return probeReadsContentParts(key, probe);
  const shapeKey = `${shape.contentNone ? 1 : 0}${shape.argumentsAsString ? 1 : 0}`;
  return probeAnswers.get(`parts\u0000${role}\u0000${shapeKey}\u0000${key}`, () => printsPartText(rendersWithout(probe, partsConversation(role, shape))));
}

function partsConversation(role: Exclude<PartRole, "user">, shape: ToolCallShape): Record<string, unknown>[] {
  const parts = [{ type: "text", text: PROBE }];
  if (role === "system") return [{ role: "system", content: parts }, { role: "user", content: "x" }];
  if (role === "assistant") return [{ role: "user", content: "x" }, { role: "assistant", content: parts }];
  // The probe history's first call, answered by a result in parts.
  const call = PROBE_CALLS[0]!;
  const [user, assistant] = callConversation(shape);
  return [user!, assistant!, { role: "tool", tool_call_id: call.id, content: parts, name: call.name }];
}

/**
 * Tool definitions reach the prompt: the probe tool's name is printed (with no call in the probe, only
 * the definitions can print it; some templates print names and schemas but no descriptions).
 * `afterSystem`: in a conversation that starts with a system message (functiongemma prints the tools
 * only inside one).
 */
export function probeRendersToolDefinitions(key: string, probe: ProbeRender, afterSystem = false): boolean {
  return probeAnswers.get(`definitions\u0000${afterSystem ? "system\u0000" : ""}${key}`, () => {
    const lead = afterSystem ? [{ role: "system", content: PROBE_SYSTEM }] : [];
    const out = rendersWithout(probe, [...lead, { role: "user", content: "x" }], [PROBE_TOOL]);
    // `afterSystem`: a template that raises on the system message (granite 20b fc rejects every one)
    // keeps the answer without it.
    if (out === undefined && afterSystem) return probeRendersToolDefinitions(key, probe);
    return out !== undefined && out.includes(PROBE_TOOL.function.name);
  });
}

/** A system message as clients write one (for the probes whose answer a leading system message changes). */
const PROBE_SYSTEM = "You are a helpful assistant.";

/** The normalised conversation starts with a system (or developer) message. */
export function leadsWithSystem(messages: readonly Record<string, unknown>[]): boolean {
  const role = messages[0]?.role;
  return role === "system" || role === "developer";
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
const sourceCache = new BoundedCache<string, SourceCaps>(1024, 16 << 20, (source) => 1024 + weighByKey(source));

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
