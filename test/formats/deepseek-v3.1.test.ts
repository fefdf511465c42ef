import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("deepseek-v3.1").tools(TOOLS);
const call = (name: string, args: string) => `<｜tool▁call▁begin｜>${name}<｜tool▁sep｜>${args}<｜tool▁call▁end｜>`;

describe("deepseek-v3.1", () => {
  it("one call", () => {
    t.test(`<｜tool▁calls▁begin｜>${call("get_weather", '{"city": "Hangzhou"}')}<｜tool▁calls▁end｜>`).expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Hangzhou" }, arguments_text: '{"city": "Hangzhou"}' }],
    });
  });
  it("text before, parallel calls, unicode", () => {
    t.test(`稍等。<｜tool▁calls▁begin｜>${call("get_weather", '{"city": "杭州"}')}${call("search", '{"query": "西湖 龙井", "limit": 2}')}<｜tool▁calls▁end｜>`).expect({
      content: "稍等。",
      tool_calls: [
        { name: "get_weather", arguments: { city: "杭州" } },
        { name: "search", arguments: { query: "西湖 龙井", limit: 2 } },
      ],
    });
  });
  it("thinking mode: reasoning, then a call", () => {
    t.promptSuffix("<｜Assistant｜><think>")
      .test(`Need the weather.</think>${"<｜tool▁calls▁begin｜>"}${call("get_weather", '{"city": "Xi\'an"}')}<｜tool▁calls▁end｜>`)
      .expect({ content: null, reasoning_content: "Need the weather.", tool_calls: [{ name: "get_weather", arguments: { city: "Xi'an" } }] });
  });
  it("a call inside the reasoning", () => {
    t.promptSuffix("<think>")
      .test(`Checking.${call("search", '{"query": "v3.1"}')}Found it.</think>It is out.`)
      .expect({ content: "It is out.", reasoning_content: "Checking.Found it.", tool_calls: [{ name: "search", arguments: { query: "v3.1" } }] });
  });
  it("text after the calls is kept", () => {
    t.test(`<｜tool▁calls▁begin｜>${call("get_weather", '{"city": "Busan"}')}<｜tool▁calls▁end｜> Shall I go on?`).expect({
      content: " Shall I go on?",
      tool_calls: [{ name: "get_weather", arguments: { city: "Busan" } }],
    });
  });
  it("a truncated block keeps its text", () => {
    t.test("Let me look that up.<｜tool▁calls▁begin｜>get_weather")
      .expect({ content: "Let me look that up.<｜tool▁calls▁begin｜>get_weather" });
  });
});
