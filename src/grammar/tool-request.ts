/**
 * What a grammar needs from a request: its tools, the tool_choice rule and whether parallel calls are
 * allowed, checked against each other (a named choice must name a declared tool).
 */
import { invalidRequest } from "../errors.js";
import { normalizeToolChoice, normalizeTools, type ToolChoiceRule } from "../request/tools.js";
import { isObject } from "../request/is-object.js";
import type { FunctionTool } from "../types.js";

export interface ToolRequest {
  tools: FunctionTool[];
  choice: ToolChoiceRule;
  /** `parallel_tool_calls: false` allows at most one call. */
  parallel: boolean;
}

export function toolRequest(request: unknown): ToolRequest {
  const body = isObject(request) ? request : {};
  const tools = normalizeTools(body.tools) ?? [];
  const choice = normalizeToolChoice(body.tool_choice);
  if (choice.kind === "function" && !tools.some((t) => t.function.name === choice.name)) {
    throw invalidRequest("tool_choice", `names ${JSON.stringify(choice.name)}, which is not among the request's tools`);
  }
  if (choice.kind === "required" && tools.length === 0) throw invalidRequest("tool_choice", '"required" needs at least one tool');
  return { tools, choice, parallel: body.parallel_tool_calls !== false };
}

/** The tools a call may name under the choice (none for `none`). */
export function callableTools(req: ToolRequest): FunctionTool[] {
  if (req.choice.kind === "none") return [];
  if (req.choice.kind === "function") {
    const name = req.choice.name;
    return req.tools.filter((t) => t.function.name === name);
  }
  return req.tools;
}
