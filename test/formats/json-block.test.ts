import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("json-block").tools(TOOLS);

describe("json-block", () => {
  it("text, then a fenced call", () => {
    t.test('I will call a tool.\n```json\n{"name": "get_weather", "arguments": {"city": "Accra"}}\n```').expect({
      content: "I will call a tool.\n",
      tool_calls: [{ name: "get_weather", arguments: { city: "Accra" }, arguments_text: '{"city": "Accra"}' }],
    });
  });
  it("a list of calls, unicode", () => {
    t.test('```json\n[{"name": "get_weather", "arguments": {"city": "Dakar"}}, {"name": "search", "arguments": {"query": "thiéboudienne"}}]\n```').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Dakar" } },
        { name: "search", arguments: { query: "thiéboudienne" } },
      ],
    });
  });
  it("a JSON block that is data is content, without an error", () => {
    const text = 'Here is the data:\n```json\n{"temperature": 21}\n```';
    t.test(text).expect({ content: text });
  });
  it("text after the block is kept", () => {
    t.test('```json\n{"name": "search", "parameters": {"query": "x"}}\n```\nWaiting for the result.').expect({
      content: "\nWaiting for the result.",
      tool_calls: [{ name: "search", arguments: { query: "x" } }],
    });
  });
  it("a plain answer", () => {
    t.test("No tools needed: 2 + 2 = 4.").expect({ content: "No tools needed: 2 + 2 = 4." });
  });
});
