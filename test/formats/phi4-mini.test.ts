import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("phi4-mini").tools(TOOLS);

describe("phi4-mini", () => {
  it("one call", () => {
    t.test('functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Tokyo" }, arguments_text: '{"city": "Tokyo"}' }],
    });
  });
  it("parallel calls over lines", () => {
    t.test('functools[\n  {"name": "get_weather", "arguments": {"city": "Tokyo"}},\n  {"name": "search", "arguments": {"query": "Asia/Tokyo time"}}\n]').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Tokyo" } },
        { name: "search", arguments: { query: "Asia/Tokyo time" } },
      ],
    });
  });
  it("text around the call", () => {
    t.test('Let me check.\nfunctools[{"name": "get_weather", "arguments": {"city": "Kyoto"}}]\nAnything else?').expect({
      content: "Let me check.\n\nAnything else?",
      tool_calls: [{ name: "get_weather", arguments: { city: "Kyoto" } }],
    });
  });
  it("escaped strings and unicode", () => {
    t.test('functools[{"name": "write_file", "arguments": {"path": "C:\\\\tmp\\\\a.txt", "content": "He said \\"hi\\" 🎉"}}]').expect({
      content: null,
      tool_calls: [{ name: "write_file", arguments: { path: "C:\\tmp\\a.txt", content: 'He said "hi" 🎉' } }],
    });
  });
  it("prose mentioning functools is content", () => {
    t.test("Python has a functools module.").expect({ content: "Python has a functools module." });
  });
});
