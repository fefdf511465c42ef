import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("granite").tools(TOOLS);

describe("granite", () => {
  it("one call", () => {
    t.test('<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Armonk"}}]').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Armonk" }, arguments_text: '{"city": "Armonk"}' }],
    });
  });
  it("text before, parallel calls across lines, unicode", () => {
    t.test('Sure.<|tool_call|>[\n  {"name": "get_weather", "arguments": {"city": "Zürich"}},\n  {"name": "search", "arguments": {"query": "Zürich Fondue"}}\n]').expect({
      content: "Sure.",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Zürich" } },
        { name: "search", arguments: { query: "Zürich Fondue" } },
      ],
    });
  });
  it("reasoning, then the response wrapper is dropped", () => {
    t.test("<think>Just greet.</think><response>Hello, world!</response>").expect({ content: "Hello, world!", reasoning_content: "Just greet." });
  });
  it("reasoning, then a call", () => {
    t.test('<think>Call it.</think><|tool_call|>[{"name": "search", "arguments": {"query": "granite"}}]').expect({
      content: null,
      reasoning_content: "Call it.",
      tool_calls: [{ name: "search", arguments: { query: "granite" } }],
    });
  });
  it("text after the array is kept", () => {
    t.test('<|tool_call|>[{"arguments": {"city": "Rome"}, "name": "get_weather"}] Anything else?').expect({
      content: " Anything else?",
      tool_calls: [{ name: "get_weather", arguments: { city: "Rome" } }],
    });
  });
});
