/**
 * The words a tool-call polyfill adds to the prompt: the tool list and how to call them in the
 * json-block format (docs/formats.md), which is what chatwire then parses. JSON is printed the way
 * Python's json.dumps does (`", "` / `": "`, non-ASCII kept, `1.0` kept), like most chat templates.
 */
import { dumpJson, type JsonOptions } from "../jinja/tojson.js";
import type { ToolChoiceRule } from "../request/tools.js";
import type { FunctionTool } from "../types.js";

export const POLYFILL_JSON: JsonOptions = { indent: null, itemSeparator: ", ", keySeparator: ": ", sortKeys: false, ensureAscii: false };

/** `{"name": ..., "arguments": ...}`, the call object of the json-block format. */
export function callJson(name: unknown, args: unknown): string {
  return dumpJson({ name, arguments: args ?? {} }, POLYFILL_JSON);
}

function toolLine(tool: FunctionTool): string {
  const { name, description, parameters } = tool.function;
  const entry: Record<string, unknown> = { name };
  if (description !== undefined) entry.description = description;
  entry.parameters = parameters ?? { type: "object", properties: {} };
  return dumpJson(entry, POLYFILL_JSON);
}

function choiceLine(choice: ToolChoiceRule, parallel: boolean): string {
  switch (choice.kind) {
    case "none":
      return "Do not call any tool in your next answer; answer in plain text.";
    case "required":
      return `You must call at least one tool in your next answer.${parallel ? "" : " Call exactly one."}`;
    case "function":
      return `You must call the tool ${JSON.stringify(choice.name)} in your next answer.`;
    default:
      return parallel ? "Call tools only when they help." : "Call tools only when they help, and at most one at a time.";
  }
}

/** The instruction block: tool definitions (one JSON object per line) and the answer format. */
export function toolInstructions(tools: readonly FunctionTool[], choice: ToolChoiceRule, parallel: boolean): string {
  return [
    "You have access to the following tools:",
    ...tools.map(toolLine),
    "",
    "To call a tool, answer with a fenced JSON block that holds the call:",
    "```json",
    callJson("tool_name", { argument: "value" }),
    "```",
    "To call several tools at once, put a JSON list of such objects in one block. Write the block last; " +
      "the tool results will come back in the next message, each starting with \"Tool result\". " +
      "When no tool is needed, answer normally, without a JSON block.",
    choiceLine(choice, parallel),
  ].join("\n");
}

/**
 * The tool list alone, for templates that print tool calls in their own syntax but never the tools
 * (DeepSeek V3): the model calls them the way the prompt's earlier calls (and its training) show.
 */
export function toolListText(tools: readonly FunctionTool[], choice: ToolChoiceRule, parallel: boolean): string {
  return ["You have access to the following tools:", ...tools.map(toolLine), "", choiceLine(choice, parallel)].join("\n");
}

/** A tool result as user-visible text. */
export function toolResultText(name: unknown, id: unknown, content: string): string {
  const who = typeof name === "string" && name !== "" ? ` (${name}${typeof id === "string" ? `, ${id}` : ""})` : "";
  return `Tool result${who}:\n${content}`;
}
