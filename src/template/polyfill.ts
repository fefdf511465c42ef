/**
 * Tool calling for templates that have none (Gemma 2, Phi-3.5, RWKV World, ...). When a request has
 * tools and the template cannot show them, the conversation is rewritten before rendering:
 * - the tool list and the json-block calling instruction join the system message, or, when the
 *   template rejects system messages, the start of the first user message;
 * - earlier assistant tool calls become a ```json block in the assistant's text;
 * - tool results become user messages ("Tool result (name, id):\n..."), merged with neighbouring
 *   user text so templates that demand strict user/assistant alternation still accept them;
 * and the template is rendered without `tools`. Completions are then parsed as json-block.
 * docs/polyfills.md describes the behaviour for users.
 */
import type { Conversation } from "../request/index.js";
import { isObject } from "../request/is-object.js";
import { callJson, toolInstructions, toolResultText } from "./polyfill-prompt.js";

/** `auto`: only for templates whose caps say they do not support tools; `always`; `never`. */
export type PolyfillMode = "auto" | "always" | "never";

export function polyfillApplies(mode: PolyfillMode | undefined, supportsTools: () => boolean, hasTools: boolean): boolean {
  if (!hasTools || mode === "never") return false;
  return mode === "always" || !supportsTools();
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
export function polyfillMessages(conversation: Conversation, supportsSystem: boolean, parallel: boolean): Message[] {
  const instructions = toolInstructions(conversation.tools ?? [], conversation.toolChoice, parallel);
  const out: Message[] = [];
  /** Messages made from tool results may merge with the user message next to them. */
  const fromTool = new WeakSet<Message>();
  let system: string | undefined;
  for (const message of conversation.messages) {
    const role = message.role;
    if (role === "system" && system === undefined && out.length === 0) {
      system = joinText(textOf(message.content), instructions);
      if (supportsSystem) out.push({ ...message, content: system });
    } else if (role === "assistant" && Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      const { tool_calls: calls, ...rest } = message;
      out.push({ ...rest, content: joinText(textOf(message.content), callsBlock(calls as unknown[])) });
    } else if (role === "tool" || role === "function") {
      const text = toolResultText(message.name, message.tool_call_id, textOf(message.content));
      pushUser(out, { role: "user", content: text }, fromTool, true);
    } else if (role === "user" || (role === "system" && !supportsSystem)) {
      pushUser(out, { ...message, role: "user" }, fromTool, false);
    } else {
      out.push(message);
    }
  }
  if (system === undefined) {
    system = instructions;
    if (supportsSystem) out.unshift({ role: "system", content: system });
  }
  if (!supportsSystem) {
    const first = out.findIndex((m) => m.role === "user");
    if (first === -1) out.unshift({ role: "user", content: system });
    else out[first] = { ...out[first], content: joinText(system, textOf(out[first]!.content)) };
  }
  return out;
}

function pushUser(out: Message[], message: Message, fromTool: WeakSet<Message>, isToolResult: boolean): void {
  const last = out[out.length - 1];
  if (last !== undefined && last.role === "user" && (isToolResult || fromTool.has(last))) {
    const merged = { ...last, content: joinText(textOf(last.content), textOf(message.content)) };
    out[out.length - 1] = merged;
    fromTool.add(merged);
    return;
  }
  out.push(message);
  if (isToolResult) fromTool.add(message);
}
