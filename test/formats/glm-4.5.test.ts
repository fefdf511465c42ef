/**
 * glm-4.5: GLM-4.5 / 4.6 / 4.7, GLM-5. Each case runs one-shot, code point by code point and at random
 * cuts; the reconstruction renders calls through the real templates and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, date: { type: "string" }, days: { type: "integer" } }, required: ["city"] } },
  },
  { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } },
  { type: "function", function: { name: "apply_diff", parameters: { type: "object", properties: { diff: { type: "string" }, files: { type: "array" } }, required: ["diff"] } } },
];

const t = tester("glm-4.5").tools(TOOLS);

describe("glm-4.5 completions", () => {
  it("reasoning, text, then a call with newlines", () => {
    t.test("<think>The user asks about Beijing.</think>\nLet me look.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>北京</arg_value>\n<arg_key>date</arg_key>\n<arg_value>2025-08-01</arg_value>\n</tool_call>").expect({
      content: "\nLet me look.\n",
      reasoning_content: "The user asks about Beijing.",
      tool_calls: [{ name: "get_weather", arguments: { city: "北京", date: "2025-08-01" } }],
    });
  });

  it("GLM-4.7: prompt opened <think>, compact call without newlines, typed integer", () => {
    t.promptSuffix("<|assistant|><think>")
      .test("Two days.</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>Seattle</arg_value><arg_key>days</arg_key><arg_value>2</arg_value></tool_call>")
      .expect({ content: null, reasoning_content: "Two days.", tool_calls: [{ name: "get_weather", arguments: { city: "Seattle", days: 2 } }] });
  });

  it("parallel calls with text between them, and zero arguments", () => {
    t.test("First the time.\n<tool_call>get_time</tool_call>\nThen the weather.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Lisboa</arg_value>\n</tool_call>").expect({
      content: "First the time.\n\nThen the weather.\n",
      tool_calls: [
        { name: "get_time", arguments: {}, arguments_text: "{}" },
        { name: "get_weather", arguments: { city: "Lisboa" } },
      ],
    });
  });

  it("a diff value keeps its whitespace and tags; an array value is JSON", () => {
    const diff = "  @@ -1 +1 @@\n-<arg_value>old</arg_value>\n+<b>new</b>\n";
    t.test(`<tool_call>apply_diff\n<arg_key>diff</arg_key>\n<arg_value>${diff}</arg_value>\n<arg_key>files</arg_key>\n<arg_value>["a.md", "b.md"]</arg_value>\n</tool_call>`).expect({
      content: null,
      tool_calls: [{ name: "apply_diff", arguments: { diff: diff.slice(0, -1), files: ["a.md", "b.md"] } }],
    });
  });

  it("no tools declared: untyped numbers and booleans are decoded as JSON", () => {
    t.tools(null)
      .test("<tool_call>calculate\n<arg_key>a</arg_key>\n<arg_value>42</arg_value>\n<arg_key>b</arg_key>\n<arg_value>3.14</arg_value>\n<arg_key>exact</arg_key>\n<arg_value>true</arg_value>\n<arg_key>op</arg_key>\n<arg_value>add</arg_value>\n</tool_call>")
      .expect({ content: null, tool_calls: [{ name: "calculate", arguments: { a: 42, b: 3.14, exact: true, op: "add" }, arguments_text: '{"a": 42, "b": 3.14, "exact": true, "op": "add"}' }] });
  });

  it("a JSON call object in the tags is read too; prose in the tags is not a name", () => {
    t.test('<tool_call>{"name": "get_weather", "arguments": {"city": "Xi\'an"}}</tool_call>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Xi'an" } }],
    });
    const prose = "Use <tool_call>the tag</tool_call> to call.";
    t.test(prose).errors([{ type: "malformed" }]).expect({ content: prose });
  });

  it("an undeclared tool keeps its text and reports unknown_tool", () => {
    const raw = "<tool_call>send_message\n<arg_key>text</arg_key>\n<arg_value>你好</arg_value>\n</tool_call>";
    t.test(raw).errors([{ type: "unknown_tool", name: "send_message" }]).expect({ content: raw });
  });

  it("an unclosed call at the end of the output is truncated, its text kept", () => {
    const raw = "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Beij";
    t.test(raw).errors([{ type: "truncated", name: "get_weather" }]).expect({ content: raw });
  });
});

describe("glm-4.5 reconstruction through the real templates", () => {
  for (const file of ["GLM-4.6.jinja", "GLM-4.7-Flash.jinja"]) {
    it(file, async () => {
      const r = await reconstruct(file);
      expect(r.format).toBe("glm-4.5");
      expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
      expect(r.result.message.reasoning_content).toBe("The user wants two things.");
      expect(r.result.errors).toEqual([]);
    });
  }
});
