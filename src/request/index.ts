/**
 * Request normalisation: a Chat Completions or Responses body becomes one canonical conversation, the
 * `messages` and `tools` a chat template is rendered with. The rules (numbered in comments) are the
 * project's normalisation spec; the fixtures scripts mirror them in Python as an independent oracle.
 */
import { invalidRequest } from "../errors.js";
import type { FunctionTool } from "../types.js";
import { chatMessages } from "./chat.js";
import { keptMessages } from "./kept-messages.js";
import { isObject } from "./is-object.js";
import { MessageRules, type Message, type TemplateInfo } from "./message-rules.js";
import { responsesMessages } from "./responses.js";
import { normalizeToolChoice, normalizeTools, type ToolChoiceRule } from "./tools.js";

export interface Conversation {
  messages: Record<string, unknown>[];
  /** Undefined when the request has no tools (templates then see `tools` as None). */
  tools?: FunctionTool[];
  toolChoice: ToolChoiceRule;
  /** Things that were accepted but may not be what the caller meant (e.g. arguments that are not JSON). */
  warnings: string[];
}

export function normalizeRequest(body: unknown, templateInfo: TemplateInfo): Conversation {
  return normalizeConversation(body, templateInfo, false);
}

/**
 * normalizeRequest for a render, which never writes to the messages: with `shareMessages` they may be
 * ones made for an earlier request with the same (frozen) messages array, deeply frozen
 * (kept-messages.ts). normalizeRequest's own callers get messages of their own.
 */
export function normalizeConversation(body: unknown, templateInfo: TemplateInfo, shareMessages: boolean): Conversation {
  // Rule 1: `messages` makes it a Chat Completions body, else `input` a Responses body.
  if (!isObject(body) || (body.messages === undefined && body.input === undefined)) {
    throw invalidRequest("messages", "the request needs `messages` (Chat Completions) or `input` (Responses)");
  }
  const warnings: string[] = [];
  const rules = new MessageRules(templateInfo, warnings);
  // Only a frozen array can be one met before (a caller's own array is normalised as it is now).
  const messages: Message[] =
    shareMessages && Array.isArray(body.messages) && Object.isFrozen(body.messages)
      ? keptMessages(body.messages, templateInfo, warnings, (list, deepFrozen) => rules.oneCallPerMessage(chatMessages(list, rules, deepFrozen)))
      : rules.oneCallPerMessage(
          body.messages !== undefined ? chatMessages(body.messages, rules) : responsesMessages(body.instructions, body.input, rules),
        );
  const tools = normalizeTools(body.tools);
  const conversation: Conversation = { messages, toolChoice: normalizeToolChoice(body.tool_choice), warnings };
  if (tools !== undefined && tools.length > 0) conversation.tools = tools;
  return conversation;
}

export { readJson } from "./read-json.js";
export { readSharedJson } from "./read-shared-json.js";
export { normalizeTools, normalizeToolChoice } from "./tools.js";
export type { ToolChoiceRule } from "./tools.js";
export type { TemplateInfo } from "./message-rules.js";
