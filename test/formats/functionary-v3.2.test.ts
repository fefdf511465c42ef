import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("functionary-v3.2").tools(TOOLS).promptSuffix("<|start_header_id|>assistant<|end_header_id|>\n\n>>>");

describe("functionary-v3.2", () => {
  it("one call", () => {
    t.test('get_weather\n{"city": "Dublin"}').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Dublin" }, arguments_text: '{"city": "Dublin"}' }],
    });
  });
  it("text, then parallel calls", () => {
    t.test('all\nLet me check both.>>>get_weather\n{"city": "Cork"}>>>search\n{"query": "Cork pubs", "limit": 3}').expect({
      content: "Let me check both.",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Cork" } },
        { name: "search", arguments: { query: "Cork pubs", limit: 3 } },
      ],
    });
  });
  it("plain answer with unicode", () => {
    t.test("all\nΓεια σου! Καλημέρα.").expect({ content: "Γεια σου! Καλημέρα." });
  });
  it("unicode arguments", () => {
    t.test('write_file\n{"path": "привет.txt", "content": "Привет, мир!"}').expect({
      content: null,
      tool_calls: [{ name: "write_file", arguments: { path: "привет.txt", content: "Привет, мир!" } }],
    });
  });
  it("without a prompt suffix the output still starts in a recipient line", () => {
    tester("functionary-v3.2").tools(TOOLS).test('search\n{"query": "x"}<|eot_id|>').expect({
      content: null,
      tool_calls: [{ name: "search", arguments: { query: "x" } }],
    });
  });
});
