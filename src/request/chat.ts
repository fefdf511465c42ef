/** Chat Completions `messages` -> canonical messages (spec rules 2-7). */
import { invalidRequest } from "../errors.js";
import { isObject } from "./is-object.js";
import { copyObject } from "../jinja/key-order.js";
import type { Message, MessageRules } from "./message-rules.js";

export function chatMessages(messages: unknown, rules: MessageRules): Message[] {
  if (!Array.isArray(messages)) throw invalidRequest("messages", "must be an array of messages");
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    rules.at("messages", i);
    out.push(chatMessage(messages[i], rules));
  }
  return out;
}

/** The message at rules' current item (`messages[i]`: field names are made only for an error). */
function chatMessage(message: unknown, rules: MessageRules): Message {
  if (!isObject(message)) throw invalidRequest(rules.field(), "a message must be an object");
  const copy: Message = copyObject(message);
  const role = rules.role(message.role);
  copy.role = role;
  if ("content" in copy) copy.content = rules.content(copy.content, role);
  if (copy.tool_calls !== undefined && copy.tool_calls !== null) copy.tool_calls = rules.toolCalls(copy.tool_calls);
  // OpenAI sends `content: null` next to tool calls; templates concatenate it as a string (rule 3).
  if (copy.role === "assistant") rules.assistantContent(copy);
  if (copy.role === "tool" && copy.tool_call_id !== undefined && copy.tool_call_id !== null) {
    const name = rules.callName(copy.tool_call_id);
    if ((copy.name === undefined || copy.name === null) && name !== undefined) copy.name = name;
  }
  return copy;
}
