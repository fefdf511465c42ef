/**
 * Tools arrive in two shapes: Chat Completions `{type: "function", function: {name, parameters}}` and
 * Responses `{type: "function", name, parameters, strict}`. Everything inside chatwire works on the
 * Chat Completions shape, which is also what chat templates expect (`tool.function.name`).
 */
import { invalidRequest } from "../errors.js";
import { freezeDeep, isDeepFrozen } from "../jinja/index.js";
import { schemaEngine, toolSchemaError, toolSchemaProblem } from "../schema/index.js";
import type { FunctionTool, ToolChoice } from "../types.js";
import { isObject } from "./is-object.js";
import { keptTools } from "./kept-tools.js";
import { isJsonMade } from "./json-made.js";
import { RecentWeakMap } from "./recent-weak-map.js";
import { withFields } from "../jinja/key-order.js";

/** Validates and converts `tools` to the Chat Completions shape. `field` names the array in errors. */
export function normalizeTools(tools: unknown, field = "tools"): FunctionTool[] | undefined {
  if (tools === undefined || tools === null) return undefined;
  if (!Array.isArray(tools)) throw invalidRequest(field, "must be an array of tools");
  // A list met before as other objects: the frozen copy kept of it, whose tojson text and schema checks are kept by identity.
  const source = keptTools(tools);
  if (!isDeepFrozen(source)) return normalizeList(source, field, false);
  // A list that cannot change (that copy, readSharedJson's): normalised once, so that every render is
  // given the very same frozen array (a template's `tools | tojson` is then encoded once, not per render).
  const engine = schemaEngine();
  const done = NORMALISED.get(source);
  if (done !== undefined && done.engine === engine && done.field === field) return done.tools;
  const out = frozenList(source, normalizeList(source, field, true, isJsonMade(source)));
  NORMALISED.set(source, { engine, field, tools: out });
  return out;
}

/**
 * The normalised list, frozen. When every tool came through as it was (the Chat Completions shape),
 * it is the source list itself, deeply frozen already: no copy to freeze, walk and mark (a request
 * that shares nothing made all three for nothing).
 */
function frozenList(source: readonly unknown[], out: FunctionTool[]): FunctionTool[] {
  for (let i = 0; i < out.length; i++) if (out[i] !== source[i]) return freezeDeep(out);
  return source as FunctionTool[];
}

/** normalizeTools' result for each deeply frozen list, with the schema engine that checked it and the field named in errors. */
const NORMALISED = new RecentWeakMap<readonly unknown[], { engine: string; field: string; tools: FunctionTool[] }>();

/**
 * `deepFrozen`: the list is deeply frozen (so is every schema in it, which its check then need not ask);
 * `plain`: readSharedJson made it from JSON text (every object in it is plain data, json-made.ts). Field names (`tools[3].function.parameters`) are made only for an error: a request whose tools are
 * all new made two strings per tool for nothing.
 */
function normalizeList(tools: readonly unknown[], field: string, deepFrozen: boolean, plain = false): FunctionTool[] {
  const out: FunctionTool[] = [];
  const seen = tools.length > FEW_TOOLS ? new Set<string>() : undefined;
  const names: string[] = [];
  const lengths: number[] = [];
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    const normalised = normalizeTool(tool, field, i, deepFrozen, plain);
    // Two tools by one name: a call could not be told apart (nor validated against one schema).
    const name = normalised.function.name;
    if (seen !== undefined ? seen.has(name) : namedBefore(names, lengths, name)) {
      throw invalidRequest(`${field}[${i}]${isObject((tool as Record<string, unknown>).function) ? ".function" : ""}.name`, `duplicate tool name ${JSON.stringify(name)}`);
    }
    if (seen !== undefined) seen.add(name);
    else {
      names.push(name);
      lengths.push(name.length);
    }
    out.push(normalised);
  }
  return out;
}

/**
 * Up to this many tools, a name is compared with each before it (lengths first) instead of kept in a
 * Set: hashing each new name and growing the Set cost 1.5 us for the bench's 21 tools, about a tenth
 * of normalising a request that shares nothing (issue 19).
 */
const FEW_TOOLS = 32;

/**
 * `name` is one of `names` (whose lengths are `lengths`). The lengths are compared from their own
 * packed array: reading each earlier name's length from the string itself, one heap object per name,
 * cost 0.3 us for the bench's 21 tools (210 comparisons).
 */
function namedBefore(names: readonly string[], lengths: readonly number[], name: string): boolean {
  const n = name.length;
  for (let j = 0; j < lengths.length; j++) if (lengths[j] === n && names[j] === name) return true;
  return false;
}

/** Tool `i` of the list named `list`. Its field names are made only for an error (no closures either: two a tool, for nothing). */
function normalizeTool(tool: unknown, list: string, i: number, deepFrozen: boolean, plain: boolean): FunctionTool {
  if (!isObject(tool)) throw invalidRequest(`${list}[${i}]`, "must be an object");
  if (tool.type !== undefined && tool.type !== "function") {
    throw invalidRequest(`${list}[${i}].type`, `unsupported tool type ${JSON.stringify(tool.type)} (only "function")`);
  }
  // Chat Completions nests the definition; Responses keeps it flat.
  const nested = isObject(tool.function);
  const def = (nested ? tool.function : tool) as Record<string, unknown>;
  if (typeof def.name !== "string" || def.name === "") throw invalidRequest(`${definitionField(list, i, nested)}.name`, "must be a non-empty string");
  const parameters = def.parameters;
  if (parameters !== undefined) {
    if (!isObject(parameters)) throw invalidRequest(`${definitionField(list, i, nested)}.parameters`, "must be a JSON Schema object");
    // Checked here (and cached), so a schema that cannot validate anything is a request error in
    // render, parse and serve alike instead of a validator that accepts every argument.
    const problem = toolSchemaProblem(parameters, deepFrozen, plain);
    if (problem !== undefined) throw toolSchemaError(problem, parameters, `${definitionField(list, i, nested)}.parameters`);
  }
  if (nested) return tool as unknown as FunctionTool;
  // The flat definition without its `type`, keys in the caller's order.
  return { type: "function", function: withFields(def, {}, ["type"]) as FunctionTool["function"] };
}

/** Where tool `i`'s definition is: `tools[3].function` (Chat Completions) or `tools[3]` (Responses, flat). */
function definitionField(list: string, i: number, nested: boolean): string {
  return nested ? `${list}[${i}].function` : `${list}[${i}]`;
}

/** The tool names a `tool_choice` allows: all (auto), none, at least one of all (required), or one. */
export type ToolChoiceRule =
  | { kind: "auto" }
  | { kind: "none" }
  | { kind: "required" }
  | { kind: "function"; name: string };

export function normalizeToolChoice(choice: unknown, field = "tool_choice"): ToolChoiceRule {
  if (choice === undefined || choice === null || choice === "auto") return { kind: "auto" };
  if (choice === "none") return { kind: "none" };
  if (choice === "required") return { kind: "required" };
  if (isObject(choice)) {
    const fn = isObject(choice.function) ? choice.function : choice;
    if (typeof fn.name === "string") return { kind: "function", name: fn.name };
  }
  throw invalidRequest(field, 'must be "auto", "none", "required" or {type: "function", function: {name}}');
}

export type { ToolChoice };
