/** Chat Completions `messages` -> canonical messages (spec rules 2-7). */
import { invalidRequest } from "../errors.js";
import { isObject } from "./is-object.js";
import { copyObject } from "../jinja/key-order.js";
import type { Message, MessageRules } from "./message-rules.js";

export function chatMessages(messages: unknown, rules: MessageRules): Message[] {
  if (!Array.isArray(messages)) throw invalidRequest("messages", "must be an array of messages");
  return messages.map((message, i) => chatMessage(message, `messages[${i}]`, rules));
}

function chatMessage(message: unknown, field: string, rules: MessageRules): Message {
  if (!isObject(message)) throw invalidRequest(field, "a message must be an object");
  const copy: Message = copyObject(message);
  const role = rules.role(message.role, `${field}.role`);
  copy.role = role;
  if ("content" in copy) copy.content = rules.content(copy.content, `${field}.content`, role);
  if (copy.tool_calls !== undefined && copy.tool_calls !== null) {
    copy.tool_calls = rules.toolCalls(copy.tool_calls, `${field}.tool_calls`);
  }
  // OpenAI sends `content: null` next to tool calls; templates concatenate it as a string (rule 3).
  if (copy.role === "assistant") rules.assistantContent(copy);
  if (copy.role === "tool" && copy.tool_call_id !== undefined && copy.tool_call_id !== null) {
    const name = rules.callName(copy.tool_call_id, `${field}.tool_call_id`);
    if ((copy.name === undefined || copy.name === null) && name !== undefined) copy.name = name;
  }
  return copy;
}
