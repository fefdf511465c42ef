/**
 * Tools and request variants for the grammar tests: schemas that exercise what the emitter supports
 * (required and optional members, enums, nested objects, arrays with bounds, unions, nullable, $ref
 * recursion, strings that may hold markers and escapes) and nothing it relaxes, so every sampled call
 * must also pass an independent schema check.
 */
import type { FunctionTool } from "../../src/types.js";

export const RICH_TOOLS: FunctionTool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Weather for a city",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string" },
          days: { type: "integer" },
          unit: { type: "string", enum: ["c", "f"] },
          precise: { type: "boolean" },
        },
        required: ["city"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "write_file",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string" },
          content: { type: "string" },
          mode: { anyOf: [{ type: "integer" }, { type: "null" }] },
          tags: { type: "array", items: { type: "string" }, maxItems: 3 },
          encoding: { type: ["string", "boolean", "integer"] },
        },
        required: ["path", "content"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "plan",
      parameters: {
        type: "object",
        properties: {
          steps: { type: "array", items: { $ref: "#/$defs/step" }, minItems: 1, maxItems: 2 },
          ratio: { type: "number" },
          note: { type: ["string", "null"] },
        },
        required: ["steps"],
        $defs: {
          step: {
            type: "object",
            properties: { title: { type: "string" }, done: { type: "boolean" }, sub: { type: "array", items: { $ref: "#/$defs/step" }, maxItems: 1 } },
            required: ["title"],
          },
        },
      },
    },
  },
  { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } },
  {
    type: "function",
    function: {
      name: "set_value",
      parameters: {
        type: "object",
        properties: { v: { type: ["string", "null", "boolean", "integer"] }, w: { anyOf: [{ type: "number" }, { type: "string" }, { type: "array", items: { type: "integer" } }] } },
        required: ["v", "w"],
      },
    },
  },
];

/** The request shapes a grammar depends on: tool_choice and parallel_tool_calls. */
export function REQUEST_VARIANTS(tools: FunctionTool[]): Record<string, Record<string, unknown>> {
  return {
    auto: { tools },
    "auto, one call": { tools, parallel_tool_calls: false },
    required: { tools, tool_choice: "required" },
    named: { tools, tool_choice: { type: "function", function: { name: tools[0]!.function.name } } },
    none: { tools, tool_choice: "none" },
  };
}

/** Tools whose schemas use minimum, maximum, exclusiveMaximum, minLength, maxLength and pattern (all enforced). */
export const KEYWORD_TOOLS: FunctionTool[] = [
  {
    type: "function",
    function: {
      name: "set_alarm",
      parameters: {
        type: "object",
        properties: {
          hour: { type: "integer", minimum: 0, maximum: 23 },
          minute: { type: "integer", minimum: 0, exclusiveMaximum: 60 },
          label: { type: "string", maxLength: 12 },
          code: { type: "string", pattern: "^[A-Z]{2}-\\d{3}$" },
        },
        required: ["hour", "minute", "label", "code"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "book_room",
      parameters: {
        type: "object",
        properties: {
          room: { type: "string", pattern: "^R[0-9]{3}$" },
          people: { type: "integer", minimum: 1, maximum: 8 },
          note: { type: "string", minLength: 1, maxLength: 20 },
        },
        required: ["room", "people"],
      },
    },
  },
];
