/** Chat Completions `messages` -> canonical messages (spec rules 2-7). */
import { invalidRequest } from "../errors.js";
import { isObject } from "./is-object.js";
import { copyObject } from "../jinja/key-order.js";
import type { Message, MessageRules } from "./message-rules.js";

/**
 * `share`: the messages are deeply frozen and the result only read (a render's, kept-messages.ts), so a
 * message that no rule changes is returned itself rather than copied (a system, user or named tool
 * message: most of a conversation; copying each was a quarter of normalising a new one).
 */
export function chatMessages(messages: unknown, rules: MessageRules, share = false): Message[] {
  if (!Array.isArray(messages)) throw invalidRequest("messages", "must be an array of messages");
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    rules.at("messages", i);
    out.push(chatMessage(messages[i], rules, share));
  }
  return out;
}

/** The message at rules' current item (`messages[i]`: field names are made only for an error). */
function chatMessage(message: unknown, rules: MessageRules, share: boolean): Message {
  if (!isObject(message)) throw invalidRequest(rules.field(), "a message must be an object");
  const role = rules.role(message.role);
  const hasContent = "content" in message;
  const content = hasContent ? rules.content(message.content, role) : undefined;
  const calls = message.tool_calls;
  const hasCalls = calls !== undefined && calls !== null;
  const toolCalls = hasCalls ? rules.toolCalls(calls) : calls;
  const callId = message.tool_call_id;
  const name = role === "tool" && callId !== undefined && callId !== null ? rules.callName(callId) : undefined;
  const named = name !== undefined && (message.name === undefined || message.name === null);
  if (share && role === message.role && content === message.content && !hasCalls && !named && (role !== "assistant" || (typeof content === "string" && content !== ""))) {
    return message;
  }
  const copy: Message = copyObject(message);
  copy.role = role;
  if (hasContent) copy.content = content;
  if (hasCalls) copy.tool_calls = toolCalls;
  // OpenAI sends `content: null` next to tool calls; templates concatenate it as a string (rule 3).
  if (role === "assistant") rules.assistantContent(copy);
  if (named) copy.name = name;
  return copy;
}
