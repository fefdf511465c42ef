import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("nemotron-v2").tools(TOOLS);

describe("nemotron-v2", () => {
  it("text, then a call", () => {
    t.test('Let me check.<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Santa Clara"}}]</TOOLCALL>').expect({
      content: "Let me check.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Santa Clara" }, arguments_text: '{"city": "Santa Clara"}' }],
    });
  });
  it("reasoning, then parallel calls with unicode", () => {
    t.test('<think>\nTwo lookups.\n</think>\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Kraków"}}, {"name": "search", "arguments": {"query": "pierogi Kraków"}}]</TOOLCALL>').expect({
      content: null,
      reasoning_content: "\nTwo lookups.\n",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Kraków" } },
        { name: "search", arguments: { query: "pierogi Kraków" } },
      ],
    });
  });
  it("a single object instead of an array", () => {
    t.test('<TOOLCALL>{"name": "search", "arguments": {"query": "nemotron"}}</TOOLCALL>').expect({
      content: null,
      tool_calls: [{ name: "search", arguments: { query: "nemotron" } }],
    });
  });
  it("call, then content", () => {
    t.test('<TOOLCALL>[{"name": "search", "arguments": {"query": "x"}}]</TOOLCALL>Hello, world!').expect({
      content: "Hello, world!",
      tool_calls: [{ name: "search", arguments: { query: "x" } }],
    });
  });
  it("an unclosed object before the end marker is malformed and stays content", () => {
    const text = '<TOOLCALL>[{"name": "search", "arguments": {"query": "x"}</TOOLCALL>';
    t.test(text).errors([{ type: "malformed", name: "search" }]).expect({ content: text });
  });
});
