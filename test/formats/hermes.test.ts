import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("hermes").tools(TOOLS);

describe("hermes", () => {
  it("one call, Qwen2.5 layout", () => {
    t.test('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}\n</tool_call>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Paris", unit: "celsius" }, arguments_text: '{"city": "Paris", "unit": "celsius"}' }],
    });
  });
  it("text, parallel calls, text after", () => {
    t.test(
      'Checking both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>\n<tool_call>\n{"name": "search", "arguments": {"query": "Oslo museums", "limit": 3}}\n</tool_call>\nDone.',
    ).expect({
      content: "Checking both.\n\nDone.",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Oslo" } },
        { name: "search", arguments: { query: "Oslo museums", limit: 3 } },
      ],
    });
  });
  it("unicode arguments keep the model's characters", () => {
    t.test('<tool_call>\n{"name": "write_file", "arguments": {"path": "笔记.md", "content": "深圳 🌧️ naïve"}}\n</tool_call>').expect({
      content: null,
      tool_calls: [{ name: "write_file", arguments: { path: "笔记.md", content: "深圳 🌧️ naïve" }, arguments_text: '{"path": "笔记.md", "content": "深圳 🌧️ naïve"}' }],
    });
  });
  it("Qwen3 reasoning opened by the prompt, swapped keys, no newlines", () => {
    t.promptSuffix("<|im_start|>assistant\n<think>\n")
      .test('The user wants Lima.\n</think>\n\n<tool_call>{"arguments": {"city": "Lima"}, "name": "get_weather"}</tool_call>')
      .expect({ content: null, reasoning_content: "The user wants Lima.\n", tool_calls: [{ name: "get_weather", arguments: { city: "Lima" } }] });
  });
  it("a call inside the reasoning block is still a call", () => {
    t.test('<think>\nLook it up first.\n<tool_call>\n{"name": "search", "arguments": {"query": "qwen3"}}\n</tool_call>\n</think>\n\nHere you go.').expect({
      content: "\n\nHere you go.",
      reasoning_content: "\nLook it up first.\n\n",
      tool_calls: [{ name: "search", arguments: { query: "qwen3" } }],
    });
  });
  it("an unterminated last call at the end of the output", () => {
    t.test('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Cairo"}}').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Cairo" } }],
    });
  });
  it("schema violation: the call's text stays content", () => {
    t.test('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome", "unit": "kelvin"}}\n</tool_call>')
      .errors([{ type: "invalid_arguments", name: "get_weather" }])
      .expect({ content: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Rome", "unit": "kelvin"}}\n</tool_call>' });
  });
});
