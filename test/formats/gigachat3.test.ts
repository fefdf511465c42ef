import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("gigachat3").tools(TOOLS);
const CALL = "<|message_sep|>\n\nfunction call<|role_sep|>\n";

describe("gigachat3", () => {
  it("one call", () => {
    t.test(`${CALL}{"name": "get_weather", "arguments": {"city": "Moscow"}}`).expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Moscow" }, arguments_text: '{"city": "Moscow"}' }],
    });
  });
  it("text before, cyrillic arguments", () => {
    t.test(`Сейчас проверю.${CALL}{"name": "search", "arguments": {"query": "погода в Казани"}}`).expect({
      content: "Сейчас проверю.",
      tool_calls: [{ name: "search", arguments: { query: "погода в Казани" } }],
    });
  });
  it("the <|function_call|> token form", () => {
    t.test('<|function_call|>{"name": "get_weather", "arguments": {"city": "Sochi"}}').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Sochi" } }],
    });
  });
  it("a call, then the end of the message", () => {
    t.test(`Готово.${CALL}{"name": "search", "arguments": {"query": "x"}}</s>`).expect({
      content: "Готово.",
      tool_calls: [{ name: "search", arguments: { query: "x" } }],
    });
  });
  it("two calls in a row", () => {
    t.test(`${CALL}{"name": "get_weather", "arguments": {"city": "Omsk"}}${CALL}{"name": "get_weather", "arguments": {"city": "Tomsk"}}`).expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Omsk" } },
        { name: "get_weather", arguments: { city: "Tomsk" } },
      ],
    });
  });
});
