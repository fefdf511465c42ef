import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("llama3-json").tools(TOOLS);
const open = tester("llama3-json").tools(null);

describe("llama3-json", () => {
  it("a bare call with `parameters`", () => {
    t.test('{"name": "get_weather", "parameters": {"city": "Paris"}}<|eot_id|>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Paris" }, arguments_text: '{"city": "Paris"}' }],
    });
  });
  it("parallel calls separated by `;`, unicode", () => {
    t.test('{"name": "get_weather", "parameters": {"city": "São Paulo"}}; {"name": "search", "parameters": {"query": "Ipanema 🌴"}}').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "São Paulo" } },
        { name: "search", arguments: { query: "Ipanema 🌴" } },
      ],
    });
  });
  it("a call only at the very start: braces later in prose are content", () => {
    t.test('Here is an example: {"name": "get_weather", "parameters": {"city": "x"}} - not a call.').expect({
      content: 'Here is an example: {"name": "get_weather", "parameters": {"city": "x"}} - not a call.',
    });
  });
  it("text after a call is kept", () => {
    t.test('{"type": "function", "name": "search", "arguments": {"query": "llama"}} Anything else?').expect({
      content: " Anything else?",
      tool_calls: [{ name: "search", arguments: { query: "llama" } }],
    });
  });
  it("<|python_tag|> JSON call after text", () => {
    t.test('Let me look. <|python_tag|>{"name": "search", "parameters": {"query": "weather"}}<|eom_id|>').expect({
      content: "Let me look. ",
      tool_calls: [{ name: "search", arguments: { query: "weather" } }],
    });
  });
  it("built-in tool call `brave_search.call(...)`", () => {
    open.test('<|python_tag|>brave_search.call(query="Menlo Park weather", count=3)<|eom_id|>').expect({
      content: null,
      tool_calls: [{ name: "brave_search", arguments: { query: "Menlo Park weather", count: 3 } }],
    });
  });
  it("raw code after <|python_tag|> is a call to python", () => {
    open.test('<|python_tag|>import math\nprint(math.sqrt(2))  # "√2"\n<|eom_id|>').expect({
      content: null,
      tool_calls: [{ name: "python", arguments: { code: 'import math\nprint(math.sqrt(2))  # "√2"' } }],
    });
  });
  it("a JSON object that is data, not a call, is content", () => {
    t.test('{"title": "Report", "pages": 3}').expect({ content: '{"title": "Report", "pages": 3}' });
  });
});
