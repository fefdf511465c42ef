/**
 * The `stack-syntax` tolerance (deepseek-r1, lmstudio-ai/mlx-engine#97): LM Studio's own prompted
 * `[TOOL_REQUEST]{...}[END_TOOL_REQUEST]` block is read as a call after the reasoning, reported as a
 * repair; the same block inside reasoning is the model rehearsing the format (reasoning text), and a
 * block that holds no valid call stays content. One-shot and every split (the tester).
 */
import { describe, it } from "vitest";
import { stringTool } from "../helpers/string-tool.js";
import { tester } from "../helpers/tester.js";

const WEATHER = [stringTool("weather_GET", "zoneId")];
const BLOCK = '[TOOL_REQUEST]\n{"name": "weather_GET", "arguments": {"zoneId": "Asia/Shanghai"}}\n[END_TOOL_REQUEST]';

describe("stack-syntax", () => {
  it("the block after the reasoning is the call; the rehearsal inside the reasoning stays reasoning", () => {
    tester("deepseek-r1")
      .tools(WEATHER)
      .test(`<think>\nI will send:\n\n${BLOCK}\n\nthen wait.\n</think>\n\n${BLOCK}`)
      .errors([{ type: "repaired", repair: "stack-syntax", name: "weather_GET", call: 0 }])
      .expect({ reasoning_content: `\nI will send:\n\n${BLOCK}\n\nthen wait.\n`, content: null, tool_calls: [{ name: "weather_GET", arguments: { zoneId: "Asia/Shanghai" } }] });
  });

  it("text before the block stays content", () => {
    tester("deepseek-r1")
      .tools(WEATHER)
      .test(`Checking the weather.\n${BLOCK}`)
      .errors([{ type: "repaired", repair: "stack-syntax", call: 0 }])
      .expect({ content: "Checking the weather.\n", tool_calls: [{ name: "weather_GET", arguments: { zoneId: "Asia/Shanghai" } }] });
  });

  it("a block that holds no call, or a call to an undeclared tool, is content (the latter with its error)", () => {
    tester("deepseek-r1")
      .tools(WEATHER)
      .test("Use [TOOL_REQUEST] tags [END_TOOL_REQUEST] like this.")
      .errors([])
      .expect({ content: "Use [TOOL_REQUEST] tags [END_TOOL_REQUEST] like this.", tool_calls: [] });
    const other = '[TOOL_REQUEST]{"name": "lookup", "arguments": {}}[END_TOOL_REQUEST]';
    tester("deepseek-r1")
      .tools(WEATHER)
      .test(other)
      .errors([{ type: "unknown_tool", name: "lookup" }])
      .expect({ content: other, tool_calls: [] });
  });

  it("a family without the tolerance keeps the block as content", () => {
    tester("hermes")
      .tools(WEATHER)
      .test(`Now:\n${BLOCK}`)
      .errors([])
      .expect({ content: `Now:\n${BLOCK}`, tool_calls: [] });
  });
});
