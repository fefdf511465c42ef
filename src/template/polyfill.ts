/**
 * Tool calling for templates that lack some of it (Gemma 2, Phi-3.5, RWKV World: all of it; DeepSeek V3:
 * the tool list; SmolLM3, LFM2: earlier calls). The conversation is rewritten before rendering, adding
 * only what the template cannot show (its probed caps):
 * - definitions: the tool list joins the system message, or, when the template rejects system messages,
 *   the start of the first user message. With the json-block calling instruction when the template
 *   has no call syntax of its own (it prints no calls); the template then gets `tools` as None and
 *   completions are parsed as json-block. A template that prints calls gets the list only, and its own
 *   format parses the answer;
 * - calls: earlier assistant tool calls become a ```json block in the assistant's text;
 * - results: tool results become user messages ("Tool result (name, id):\n..."), merged with
 *   neighbouring user text so templates that demand strict user/assistant alternation still accept them.
 * docs/polyfills.md describes the behaviour for users.
 */
import type { Conversation } from "../request/index.js";
import { isObject } from "../request/is-object.js";
import { withFields } from "../jinja/key-order.js";
import type { TemplateCaps } from "./caps.js";
import { callJson, toolInstructions, toolListText, toolResultText } from "./polyfill-prompt.js";

/** `auto`: what the template's caps say it cannot show; `always`: everything; `never`: nothing. */
export type PolyfillMode = "auto" | "always" | "never";

/** What the polyfill adds to one render. */
export interface PolyfillPlan {
  /** The tool list goes into the prompt. */
  definitions: boolean;
  /** With the json-block calling instruction (and `tools` rendered as None; completions parse as json-block). */
  jsonBlock: boolean;
  /** Earlier calls become ```json text. */
  calls: boolean;
  /** Tool results become user text. */
  results: boolean;
}

type ToolCaps = Pick<TemplateCaps, "rendersToolDefinitions" | "rendersToolCalls" | "rendersToolResults">;

/**
 * `hasTools`: the request declares tools; `hasCalls`: its history has tool calls or results. Requests
 * with neither are never touched.
 */
export function polyfillPlan(mode: PolyfillMode | undefined, hasTools: boolean, hasCalls: boolean, caps: () => ToolCaps): PolyfillPlan | undefined {
  if (mode === "never" || (!hasTools && !hasCalls)) return undefined;
  if (mode === "always") {
    return hasTools ? { definitions: true, jsonBlock: true, calls: true, results: true } : undefined;
  }
  const c = caps();
  const calls = hasCalls && !c.rendersToolCalls;
  // Results follow calls: a native tool result after a call turned into text confuses templates that pair them.
  const results = hasCalls && (calls || !c.rendersToolResults);
  const definitions = hasTools && !c.rendersToolDefinitions;
  if (!definitions && !calls && !results) return undefined;
  // A template that prints calls has a call syntax of its own: the model gets the list, not json-block.
  return { definitions, jsonBlock: definitions && !c.rendersToolCalls, calls, results };
}

/** The history has a tool call or a tool result (Chat messages or Responses items). */
export function hasHistoryCalls(messages: readonly unknown[]): boolean {
  return messages.some(
    (m) =>
      isObject(m) &&
      ((Array.isArray(m.tool_calls) && m.tool_calls.length > 0) ||
        m.role === "tool" ||
        m.type === "function_call" ||
        m.type === "function_call_output"),
  );
}

type Message = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .filter((p): p is { text: string } => isObject(p) && typeof p.text === "string")
      .map((p) => p.text)
      .join("\n");
  }
  return content === null || content === undefined ? "" : String(content);
}

function joinText(...parts: string[]): string {
  return parts.filter((p) => p !== "").join("\n\n");
}

/** The assistant's calls as the json-block the model was told to write. */
function callsBlock(calls: unknown[]): string {
  const objects = calls.map((call) => {
    const fn = isObject(call) && isObject(call.function) ? call.function : {};
    return callJson(fn.name, fn.arguments);
  });
  return `\`\`\`json\n${objects.length === 1 ? objects[0] : `[${objects.join(", ")}]`}\n\`\`\``;
}

/** The rewritten messages; `supportsSystem` false puts the instructions into the first user message. */
export function polyfillMessages(conversation: Conversation, plan: PolyfillPlan, supportsSystem: boolean, parallel: boolean): Message[] {
  const tools = conversation.tools ?? [];
  const instructions = !plan.definitions
    ? ""
    : plan.jsonBlock
      ? toolInstructions(tools, conversation.toolChoice, parallel)
      : toolListText(tools, conversation.toolChoice, parallel);
  const out: Message[] = [];
  /** Messages made from tool results may merge with the user message next to them. */
  const fromTool = new WeakSet<Message>();
  let system: string | undefined;
  for (const message of conversation.messages) {
    const role = message.role;
    if (role === "system" && system === undefined && out.length === 0 && plan.definitions) {
      system = joinText(textOf(message.content), instructions);
      if (supportsSystem) out.push(withFields(message, { content: system }));
    } else if (plan.calls && role === "assistant" && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      out.push(withFields(message, { content: joinText(textOf(message.content), callsBlock(message.tool_calls as unknown[])) }, ["tool_calls"]));
    } else if (plan.results && (role === "tool" || role === "function")) {
      const text = toolResultText(message.name, message.tool_call_id, textOf(message.content));
      pushUser(out, { role: "user", content: text }, fromTool, true);
    } else if (role === "user" || (role === "system" && !supportsSystem && plan.definitions)) {
      pushUser(out, withFields(message, { role: "user" }), fromTool, false);
    } else {
      out.push(message);
    }
  }
  if (!plan.definitions) return out;
  if (system === undefined) {
    system = instructions;
    if (supportsSystem) out.unshift({ role: "system", content: system });
  }
  if (!supportsSystem) {
    const first = out.findIndex((m) => m.role === "user");
    if (first === -1) out.unshift({ role: "user", content: system });
    else out[first] = withFields(out[first]!, { content: joinText(system, textOf(out[first]!.content)) });
  }
  return out;
}

function pushUser(out: Message[], message: Message, fromTool: WeakSet<Message>, isToolResult: boolean): void {
  const last = out[out.length - 1];
  if (last !== undefined && last.role === "user" && (isToolResult || fromTool.has(last))) {
    const merged = withFields(last, { content: joinText(textOf(last.content), textOf(message.content)) });
    out[out.length - 1] = merged;
    fromTool.add(merged);
    return;
  }
  out.push(message);
  if (isToolResult) fromTool.add(message);
}
