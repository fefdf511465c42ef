import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("mistral").tools(TOOLS);

describe("mistral", () => {
  it("old array form with the model's own ids", () => {
    t.test('[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Nice"}, "id": "a1B2c3D4e"}, {"name": "search", "arguments": {"query": "Nice"}, "id": "Z9y8X7w6V"}]').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Nice" }, id: "a1B2c3D4e" },
        { name: "search", arguments: { query: "Nice" }, id: "Z9y8X7w6V" },
      ],
    });
  });
  it("new form, text before, parallel calls with unicode", () => {
    t.test('Je regarde.[TOOL_CALLS]get_weather[ARGS]{"city": "Besançon"}[TOOL_CALLS]search[ARGS]{"query": "crêpes à Besançon"}').expect({
      content: "Je regarde.",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Besançon" }, arguments_text: '{"city": "Besançon"}' },
        { name: "search", arguments: { query: "crêpes à Besançon" } },
      ],
    });
  });
  it("[CALL_ID] keeps the model's id", () => {
    t.test('[TOOL_CALLS]get_weather[CALL_ID]k3Jd9aQ2x[ARGS]{"city": "Lyon"}</s>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Lyon" }, id: "k3Jd9aQ2x" }],
    });
  });
  it("Magistral reasoning in [THINK], then a call", () => {
    t.test('[THINK]Weather in Lyon, so call the tool.[/THINK][TOOL_CALLS]get_weather[ARGS]{"city": "Lyon", "unit": "celsius"}').expect({
      content: null,
      reasoning_content: "Weather in Lyon, so call the tool.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Lyon", unit: "celsius" } }],
    });
  });
  it("v11 name directly followed by JSON, and text after a call", () => {
    t.test('[TOOL_CALLS]search{"query": "Mistral"} Voilà.').expect({
      content: " Voilà.",
      tool_calls: [{ name: "search", arguments: { query: "Mistral" } }],
    });
  });
  it("a plain answer", () => {
    t.test("Bonjour ! Comment puis-je aider ?").expect({ content: "Bonjour ! Comment puis-je aider ?" });
  });
});
