/**
 * `--kind json-schema`: one JSON Schema for a call object `{"name": ..., "arguments": ...}` (the
 * json-block / response_format style), a oneOf with one branch per callable tool. Not anyOf:
 * node-llama-cpp reads a root anyOf as "only null"; the branches differ in their `name` const, so
 * exactly one matches and oneOf means the same. Each tool's
 * `$defs` / `definitions` move to the root under `<tool>.<name>` and its `$ref`s are rewritten, so
 * the tools' definitions cannot collide.
 */
import { ChatwireError } from "../errors.js";
import { PyFloat } from "../jinja/py-float.js";
import type { FunctionTool, JsonSchema } from "../types.js";
import { callableTools, toolRequest } from "./tool-request.js";

export function buildToolJsonSchema(request: unknown): JsonSchema {
  const req = toolRequest(request);
  const tools = callableTools(req);
  if (tools.length === 0) {
    throw new ChatwireError("invalid_request", `tool_choice ${req.choice.kind === "none" ? '"none"' : "auto"} with no tools: there is no call to describe`, {
      field: "tool_choice",
    });
  }
  const defs: Record<string, unknown> = {};
  const branches = tools.map((tool) => callSchema(tool, defs));
  const schema: JsonSchema = branches.length === 1 ? { ...(branches[0] as JsonSchema) } : { oneOf: branches };
  if (Object.keys(defs).length > 0) schema.$defs = defs;
  return schema;
}

function callSchema(tool: FunctionTool, defs: Record<string, unknown>): JsonSchema {
  const name = tool.function.name;
  const params = (tool.function.parameters ?? { type: "object", properties: {} }) as JsonSchema;
  const { $defs, definitions, ...rest } = params;
  const rename = (ref: string): string => {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    return m ? `#/$defs/${name}.${m[2]}` : ref === "#" ? `#/$defs/${name}` : ref;
  };
  for (const group of [$defs, definitions]) {
    if (typeof group === "object" && group !== null) {
      for (const [key, value] of Object.entries(group)) defs[`${name}.${key}`] = rewriteRefs(value, rename);
    }
  }
  // A `$ref: "#"` (recursion to the parameters themselves) needs the parameters as a definition too.
  const args = rewriteRefs(rest, rename);
  if (JSON.stringify(params).includes('"$ref":"#"')) defs[name] = args;
  return {
    type: "object",
    properties: { name: { const: name }, arguments: args },
    required: ["name", "arguments"],
    additionalProperties: false,
  };
}

/** A deep copy with every `$ref` string renamed; PyFloat numbers become plain numbers. */
function rewriteRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (value instanceof PyFloat) return value.value;
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, rename));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = k === "$ref" && typeof v === "string" ? rename(v) : rewriteRefs(v, rename);
  return out;
}
