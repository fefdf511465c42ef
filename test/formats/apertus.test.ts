import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("apertus").tools(TOOLS);

describe("apertus", () => {
  it("one call: the tool name is the key", () => {
    t.test('<|tools_prefix|>[{"get_weather": {"city": "Bern"}}]<|tools_suffix|>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Bern" }, arguments_text: '{"city": "Bern"}' }],
    });
  });
  it("text before, parallel calls, unicode", () => {
    t.test('Einen Moment. <|tools_prefix|>[{"get_weather": {"city": "Genève"}}, {"search": {"query": "Rösti Zürich"}}]<|tools_suffix|>').expect({
      content: "Einen Moment. ",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Genève" } },
        { name: "search", arguments: { query: "Rösti Zürich" } },
      ],
    });
  });
  it("reasoning in inner markers, then a call", () => {
    t.test('<|inner_prefix|>Need weather.<|inner_suffix|><|tools_prefix|>[{"get_weather": {"city": "Basel"}}]<|tools_suffix|>').expect({
      content: null,
      reasoning_content: "Need weather.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Basel" } }],
    });
  });
  it("call, then content", () => {
    t.test('<|tools_prefix|>[{"search": {"query": "apertus"}}]<|tools_suffix|>Hello!').expect({
      content: "Hello!",
      tool_calls: [{ name: "search", arguments: { query: "apertus" } }],
    });
  });
  it("missing suffix at the end of the output", () => {
    t.test('<|tools_prefix|>[{"get_weather": {"city": "Lugano", "unit": "celsius"}}]').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Lugano", unit: "celsius" } }],
    });
  });
});
