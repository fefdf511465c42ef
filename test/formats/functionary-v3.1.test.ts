import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("functionary-v3.1").tools(TOOLS);

describe("functionary-v3.1", () => {
  it("one call", () => {
    t.test('<function=get_weather>{"city": "Paris"}</function>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Paris" }, arguments_text: '{"city": "Paris"}' }],
    });
  });
  it("two calls", () => {
    t.test('<function=get_weather>{"city": "Lisboa"}</function><function=search>{"query": "Lisboa"}</function>').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Lisboa" } },
        { name: "search", arguments: { query: "Lisboa" } },
      ],
    });
  });
  it("text before, unicode, end of turn", () => {
    t.test('Un momento.<function=search>{"query": "pastéis de nata", "limit": 2}</function><|eom_id|>').expect({
      content: "Un momento.",
      tool_calls: [{ name: "search", arguments: { query: "pastéis de nata", limit: 2 } }],
    });
  });
  it("raw code after <|python_tag|>", () => {
    tester("functionary-v3.1").tools(null).test("<|python_tag|>print(sum(range(10)))<|eom_id|>").expect({
      content: null,
      tool_calls: [{ name: "python", arguments: { code: "print(sum(range(10)))" } }],
    });
  });
  it("a plain answer", () => {
    t.test("Hello, world!<|eot_id|>").expect({ content: "Hello, world!" });
  });
});
