/**
 * gemma4: Gemma 4. Each case runs one-shot, code point by code point and at random cuts; the
 * reconstruction renders calls through the real templates and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { location: { type: "string" }, unit: { type: "string" } }, required: ["location"] } } },
  { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } },
  {
    type: "function",
    function: { name: "plan", parameters: { type: "object", properties: { steps: { type: "array" }, meta: { type: "object" }, urgent: { type: "boolean" }, budget: { type: "number" } } } },
  },
];

const t = tester("gemma4").tools(TOOLS);

describe("gemma4 completions", () => {
  it("one call", () => {
    t.test('<|tool_call>call:get_weather{location:<|"|>London<|"|>}<tool_call|>').expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { location: "London" } }] });
  });

  it("parallel calls, unicode and quotes inside strings", () => {
    t.test('<|tool_call>call:get_weather{location:<|"|>São Paulo, "SP"<|"|>,unit:<|"|>°C<|"|>}<tool_call|><|tool_call>call:get_time{}<tool_call|>').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { location: 'São Paulo, "SP"', unit: "°C" }, arguments_text: '{"location": "São Paulo, \\"SP\\"", "unit": "°C"}' },
        { name: "get_time", arguments: {}, arguments_text: "{}" },
      ],
    });
  });

  it("thought channel, then a call", () => {
    t.test("<|channel>thought\nThe user wants the time.\n<channel|><|tool_call>call:get_time{}<tool_call|>").expect({
      content: null,
      reasoning_content: "The user wants the time.",
      tool_calls: [{ name: "get_time", arguments: {} }],
    });
  });

  it("typed values and nesting", () => {
    t.test('<|tool_call>call:plan{budget:12.5,meta:{owner:<|"|>ana<|"|>,tags:[<|"|>a<|"|>,<|"|>b<|"|>]},steps:[1,2,3],urgent:false}<tool_call|>').expect({
      content: null,
      tool_calls: [{ name: "plan", arguments: { budget: 12.5, meta: { owner: "ana", tags: ["a", "b"] }, steps: [1, 2, 3], urgent: false } }],
    });
  });

  it("text before and after; the stop token after the calls is dropped", () => {
    t.test('Let me check. <|tool_call>call:get_weather{location:<|"|>Paris<|"|>}<tool_call|><|tool_response>').expect({
      content: "Let me check. ",
      tool_calls: [{ name: "get_weather", arguments: { location: "Paris" } }],
    });
  });

  it("an incomplete call at the end keeps its text", () => {
    const raw = '<|tool_call>call:get_weather{location:<|"|>London';
    t.test(raw).errors([{ type: "truncated", name: "get_weather" }]).expect({ content: raw });
  });
});

describe("gemma4 reconstruction through the real templates", () => {
  for (const file of ["google-gemma-4-31B-it.jinja", "google-gemma-4-31B-it-interleaved.jinja"]) {
    it(file, async () => {
      const r = await reconstruct(file);
      expect(r.format).toBe("gemma4");
      expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
      expect(r.result.errors).toEqual([]);
    });
  }
});
