/**
 * Responses API `instructions` + `input` -> canonical messages (spec rule 8). The Responses API spreads
 * one assistant turn over several items (a message, then `function_call` items); templates expect one
 * assistant message with `tool_calls`, so consecutive assistant items are folded into one message.
 */
import { invalidRequest } from "../errors.js";
import { joinPartTexts } from "./content.js";
import { isObject } from "./is-object.js";
import type { Message, MessageRules } from "./message-rules.js";

export function responsesMessages(instructions: unknown, input: unknown, rules: MessageRules): Message[] {
  const out: Message[] = [];
  if (instructions !== undefined && instructions !== null) {
    if (typeof instructions !== "string") throw invalidRequest("instructions", "must be a string");
    out.push({ role: "system", content: instructions });
  }
  if (typeof input === "string") {
    out.push({ role: "user", content: input });
    return out;
  }
  if (!Array.isArray(input)) throw invalidRequest("input", "must be a string or an array of input items");
  new ItemFolder(out, rules).addAll(input);
  return out;
}

class ItemFolder {
  /** Reasoning summaries waiting for the next assistant message. */
  private pendingReasoning: string[] = [];

  constructor(
    private readonly out: Message[],
    private readonly rules: MessageRules,
  ) {}

  addAll(items: unknown[]): void {
    items.forEach((item, i) => {
      this.rules.at("input", i);
      if (!isObject(item)) throw invalidRequest(this.rules.field(), "an input item must be an object");
      this.add(item);
    });
    for (const message of this.out) if (message.role === "assistant") this.rules.assistantContent(message);
    if (this.pendingReasoning.length > 0) {
      this.rules.warnings.push("input: a reasoning item is not followed by an assistant message and was dropped");
    }
  }

  /** The item at rules' current one (`input[i]`, which every field in an error starts with). */
  private add(item: Record<string, unknown>): void {
    const type = item.type ?? (item.role !== undefined ? "message" : undefined);
    switch (type) {
      case "message":
        return this.message(item);
      case "function_call":
        return this.functionCall(item);
      case "function_call_output":
        this.out.push({
          role: "tool",
          tool_call_id: item.call_id,
          name: this.rules.callName(item.call_id, "call_id"),
          content: this.rules.content(item.output, "tool", "output"),
        });
        return;
      case "reasoning":
        this.pendingReasoning.push(joinPartTexts(item.summary));
        return;
      default:
        throw invalidRequest(this.rules.field(".type"), `unsupported input item type ${JSON.stringify(type)}`);
    }
  }

  private message(item: Record<string, unknown>): void {
    const role = this.rules.role(item.role);
    const content = this.rules.content(item.content, role);
    if (role === "assistant") return this.pushAssistant({ role, content: content ?? "" });
    if (content === undefined || content === null) throw invalidRequest(this.rules.field(".content"), "is missing");
    this.out.push({ role, content });
  }

  private functionCall(item: Record<string, unknown>): void {
    if (typeof item.call_id !== "string") throw invalidRequest(this.rules.field(".call_id"), "must be a string");
    if (typeof item.name !== "string" || item.name === "") throw invalidRequest(this.rules.field(".name"), "must be a non-empty string");
    if (typeof item.arguments !== "string" && !isObject(item.arguments)) {
      throw invalidRequest(this.rules.field(".arguments"), "must be a JSON string (or an object)");
    }
    this.rules.rememberCall(item.call_id, item.name);
    const call = {
      id: item.call_id,
      type: "function",
      function: { name: item.name, arguments: this.rules.arguments(item.arguments) },
    };
    // The call joins the assistant turn it belongs to: the assistant message right before it (a text
    // message or earlier calls). After a tool result or a user message it starts a new assistant turn.
    const last = this.out[this.out.length - 1];
    if (last?.role === "assistant") {
      if (Array.isArray(last.tool_calls)) last.tool_calls.push(call);
      else last.tool_calls = [call];
      return;
    }
    this.pushAssistant({ role: "assistant", content: "", tool_calls: [call] });
  }

  private pushAssistant(message: Message): void {
    if (this.pendingReasoning.length > 0) {
      message.reasoning_content = this.pendingReasoning.join("\n");
      this.pendingReasoning = [];
    }
    this.out.push(message);
  }
}
