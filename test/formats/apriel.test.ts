import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("apriel").tools(TOOLS);

describe("apriel", () => {
  it("one call", () => {
    t.test('<tool_calls>[{"name": "get_weather", "arguments": {"city": "Montréal"}}]</tool_calls>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Montréal" }, arguments_text: '{"city": "Montréal"}' }],
    });
  });
  it("1.6: reasoning opened by the prompt ends at [BEGIN FINAL RESPONSE]", () => {
    t.promptSuffix("<|begin_assistant|>\nHere are my reasoning steps:\n")
      .test("The user greets me.\n[BEGIN FINAL RESPONSE]\nBonjour !\n[END FINAL RESPONSE]")
      .expect({ content: "\nBonjour !\n", reasoning_content: "The user greets me.\n" });
  });
  it("1.6: reasoning, then parallel calls with unicode", () => {
    t.promptSuffix("Here are my reasoning steps:\n")
      .test('Two tools.\n[BEGIN FINAL RESPONSE]\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Québec"}}, {"name": "search", "arguments": {"query": "poutine 🍟"}}]</tool_calls>')
      .expect({
        content: null,
        reasoning_content: "Two tools.\n",
        tool_calls: [
          { name: "get_weather", arguments: { city: "Québec" } },
          { name: "search", arguments: { query: "poutine 🍟" } },
        ],
      });
  });
  it("1.5: <thinking> then a call", () => {
    t.test('<thinking>Look it up.</thinking><tool_calls>[{"name": "search", "arguments": {"query": "apriel"}}]</tool_calls>').expect({
      content: null,
      reasoning_content: "Look it up.",
      tool_calls: [{ name: "search", arguments: { query: "apriel" } }],
    });
  });
  it("text before the calls", () => {
    t.test('Sure.\n<tool_calls>[{"name": "search", "arguments": {"query": "x"}}]</tool_calls>').expect({
      content: "Sure.\n",
      tool_calls: [{ name: "search", arguments: { query: "x" } }],
    });
  });
});
