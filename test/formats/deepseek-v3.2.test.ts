/**
 * deepseek-v3.2: DeepSeek V3.2 DSML. Each case runs one-shot, code point by code point and at random
 * cuts; the reconstruction renders calls through the real template and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { location: { type: "string" }, date: { type: "string" } }, required: ["location"] } } },
  {
    type: "function",
    function: {
      name: "set_timer",
      parameters: { type: "object", properties: { minutes: { type: "number" }, repeat: { type: "boolean" }, tags: { type: "array", items: { type: "string" } }, note: { type: "string" } }, required: ["minutes"] },
    },
  },
];

const t = tester("deepseek-v3.2").tools(TOOLS);
const D = "｜DSML｜";

describe("deepseek-v3.2 completions", () => {
  it("one call", () => {
    t.test(`<${D}function_calls>\n<${D}invoke name="get_weather">\n<${D}parameter name="location" string="true">Hangzhou</${D}parameter>\n</${D}invoke>\n</${D}function_calls>`).expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { location: "Hangzhou" } }],
    });
  });

  it("text, then parallel invokes with JSON values", () => {
    t.test(
      `I'll do both.\n\n<${D}function_calls>\n<${D}invoke name="get_weather">\n<${D}parameter name="location" string="true">杭州</${D}parameter>\n<${D}parameter name="date" string="true">2025-01-01</${D}parameter>\n</${D}invoke>\n<${D}invoke name="set_timer">\n<${D}parameter name="minutes" string="false">2.5</${D}parameter>\n<${D}parameter name="repeat" string="false">false</${D}parameter>\n<${D}parameter name="tags" string="false">["tea", "☕"]</${D}parameter>\n</${D}invoke>\n</${D}function_calls>`,
    ).expect({
      content: "I'll do both.\n\n",
      tool_calls: [
        { name: "get_weather", arguments: { location: "杭州", date: "2025-01-01" } },
        { name: "set_timer", arguments: { minutes: 2.5, repeat: false, tags: ["tea", "☕"] }, arguments_text: '{"minutes": 2.5, "repeat": false, "tags": ["tea", "☕"]}' },
      ],
    });
  });

  it("thinking mode: the prompt opened <think>, a call written after the reasoning", () => {
    t.promptSuffix("<｜Assistant｜><think>")
      .test(`Need a timer.</think>\n\n<${D}function_calls>\n<${D}invoke name="set_timer">\n<${D}parameter name="minutes" string="false">10</${D}parameter>\n</${D}invoke>\n</${D}function_calls>`)
      .expect({ content: null, reasoning_content: "Need a timer.", tool_calls: [{ name: "set_timer", arguments: { minutes: 10 } }] });
  });

  it("a string value with markup and a closing-tag look-alike; the schema types string=\"true\" numbers", () => {
    const note = `Remember </${D}parameter> and <b>bold</b>`;
    t.test(`<${D}function_calls>\n<${D}invoke name="set_timer">\n<${D}parameter name="minutes" string="true">5</${D}parameter>\n<${D}parameter name="note" string="true">${note}</${D}parameter>\n</${D}invoke>\n</${D}function_calls>`).expect({
      content: null,
      tool_calls: [{ name: "set_timer", arguments: { minutes: 5, note } }],
    });
  });

  it("a plain answer", () => {
    t.test("The weather in Hangzhou is sunny.").expect({ content: "The weather in Hangzhou is sunny." });
  });

  it("a missing required parameter fails validation, text kept", () => {
    const raw = `<${D}function_calls>\n<${D}invoke name="set_timer">\n<${D}parameter name="repeat" string="false">true</${D}parameter>\n</${D}invoke>\n</${D}function_calls>`;
    t.test(raw).errors([{ type: "invalid_arguments", name: "set_timer" }]).expect({ content: raw });
  });
});

describe("deepseek-v3.2 reconstruction through the real template", () => {
  it("deepseek-ai-DeepSeek-V3.2.jinja", async () => {
    const r = await reconstruct("deepseek-ai-DeepSeek-V3.2.jinja");
    expect(r.format).toBe("deepseek-v3.2");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.errors).toEqual([]);
  });
});
