import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("firefunction-v2").tools(TOOLS);

describe("firefunction-v2", () => {
  it("one call with the leading space", () => {
    t.test(' functools[{"name": "get_weather", "arguments": {"city": "Austin"}}]').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Austin" }, arguments_text: '{"city": "Austin"}' }],
    });
  });
  it("text before: the space before functools belongs to the marker, as the template writes it", () => {
    t.test('I will check. functools[{"name": "search", "arguments": {"query": "Austin BBQ", "limit": 3}}]').expect({
      content: "I will check.",
      tool_calls: [{ name: "search", arguments: { query: "Austin BBQ", limit: 3 } }],
    });
  });
  it("parallel calls, unicode", () => {
    t.test(' functools[{"name": "get_weather", "arguments": {"city": "Málaga"}}, {"name": "search", "arguments": {"query": "tapas Málaga"}}]').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Málaga" } },
        { name: "search", arguments: { query: "tapas Málaga" } },
      ],
    });
  });
  it("a plain answer", () => {
    t.test("Hello, world!\nWhat's up?").expect({ content: "Hello, world!\nWhat's up?" });
  });
  it("text after the list is kept", () => {
    t.test(' functools[{"name": "search", "arguments": {"query": "x"}}] Anything else?').expect({
      content: " Anything else?",
      tool_calls: [{ name: "search", arguments: { query: "x" } }],
    });
  });
});
