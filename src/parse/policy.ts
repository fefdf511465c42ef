/**
 * What the request allows: which tool names may be called (declared tools, narrowed by tool_choice)
 * and the schema to validate each against. With no tools declared (or no request) any name is
 * accepted and only object-ness of the arguments is checked.
 */
import { invalidRequest } from "../errors.js";
import { normalizeToolChoice, normalizeTools } from "../request/tools.js";
import type { ToolChoiceRule } from "../request/tools.js";
import type { JsonSchema, ParseIssue } from "../types.js";

export type Acceptance = { ok: true } | { ok: false; type: ParseIssue["type"]; message: string };

export class CallPolicy {
  readonly choice: ToolChoiceRule;
  /** `parallel_tool_calls: false`: at most one call. */
  readonly parallel: boolean;
  private readonly tools: Map<string, JsonSchema | undefined> | undefined;

  constructor(request: unknown) {
    if (request === undefined || request === null) {
      this.choice = { kind: "auto" };
      this.parallel = true;
      this.tools = undefined;
      return;
    }
    if (typeof request !== "object" || Array.isArray(request)) throw invalidRequest("request", "must be an object");
    const body = request as Record<string, unknown>;
    const tools = normalizeTools(body.tools);
    this.choice = normalizeToolChoice(body.tool_choice);
    if (body.parallel_tool_calls !== undefined && typeof body.parallel_tool_calls !== "boolean") {
      throw invalidRequest("parallel_tool_calls", "must be a boolean");
    }
    this.parallel = body.parallel_tool_calls !== false;
    this.tools = tools && tools.length > 0 ? new Map(tools.map((t) => [t.function.name, t.function.parameters])) : undefined;
  }

  schema(name: string): JsonSchema | undefined {
    return this.tools?.get(name);
  }

  /** The request declares at least one tool. */
  declaresAny(): boolean {
    return this.tools !== undefined;
  }

  /** The request declares a tool of this name. */
  declares(name: string): boolean {
    return this.tools?.has(name) === true;
  }

  /** A declared tool whose name starts with `prefix` would be accepted now (`opened`: see accept). */
  acceptsNameStarting(prefix: string, opened = 0): boolean {
    if (this.tools === undefined) return false;
    for (const name of this.tools.keys()) if (name.startsWith(prefix) && this.accept(name, opened).ok) return true;
    return false;
  }

  /** `opened`: how many calls were already accepted in this output. */
  accept(name: string, opened = 0): Acceptance {
    if (this.choice.kind === "none") return { ok: false, type: "tool_choice", message: `tool_choice is "none" but the model called ${JSON.stringify(name)}` };
    if (this.tools !== undefined && !this.tools.has(name)) {
      return { ok: false, type: "unknown_tool", message: `the model called ${JSON.stringify(name)}, which the request does not declare` };
    }
    if (this.choice.kind === "function" && this.choice.name !== name) {
      return { ok: false, type: "tool_choice", message: `tool_choice requires ${JSON.stringify(this.choice.name)} but the model called ${JSON.stringify(name)}` };
    }
    if (!this.parallel && opened > 0) {
      return { ok: false, type: "tool_choice", message: `parallel_tool_calls is false but the model made another call (${JSON.stringify(name)}) after its first` };
    }
    return { ok: true };
  }
}
