import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("command-r7b").tools(TOOLS);

describe("command-r7b", () => {
  it("a plan, then one action", () => {
    t.test('<|START_THINKING|>I will look up the weather.<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Toronto"}}\n]<|END_ACTION|>').expect({
      content: null,
      reasoning_content: "I will look up the weather.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Toronto" }, arguments_text: '{"city": "Toronto"}' }],
    });
  });
  it("parallel actions with unicode", () => {
    t.test('<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Montréal"}},\n    {"tool_call_id": "1", "tool_name": "search", "parameters": {"query": "poutine à Montréal", "limit": 5}}\n]<|END_ACTION|>').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Montréal" } },
        { name: "search", arguments: { query: "poutine à Montréal", limit: 5 } },
      ],
    });
  });
  it("a response only: the wrappers are dropped", () => {
    t.test("<|START_RESPONSE|>Hello, world!\nWhat's up?<|END_RESPONSE|>").expect({ content: "Hello, world!\nWhat's up?" });
  });
  it("thinking, then a response", () => {
    t.test("<|START_THINKING|>Say hi.<|END_THINKING|><|START_RESPONSE|>Hi there!<|END_RESPONSE|>").expect({ content: "Hi there!", reasoning_content: "Say hi." });
  });
  it("an action to an undeclared tool stays content", () => {
    const text = '<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "shell", "parameters": {"cmd": "ls"}}]<|END_ACTION|>';
    t.test(text).errors([{ type: "unknown_tool", name: "shell" }]).expect({ content: text });
  });
});
