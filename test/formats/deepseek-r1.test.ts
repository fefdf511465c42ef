import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("deepseek-r1").tools(TOOLS);
const call = (name: string, args: string) => `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${args}\n\`\`\`<｜tool▁call▁end｜>`;

describe("deepseek-r1", () => {
  it("one call", () => {
    t.test(`<｜tool▁calls▁begin｜>${call("get_weather", '{"city": "Tokyo"}')}<｜tool▁calls▁end｜>`).expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Tokyo" }, arguments_text: '{"city": "Tokyo"}' }],
    });
  });
  it("reasoning opened by the prompt, text, parallel calls with unicode", () => {
    t.promptSuffix("<｜Assistant｜><think>\n")
      .test(`Two lookups.\n</think>\n\nOne moment.<｜tool▁calls▁begin｜>${call("get_weather", '{"city": "北京"}')}\n${call("search", '{"query": "北京 烤鸭"}')}<｜tool▁calls▁end｜><｜end▁of▁sentence｜>`)
      .expect({
        content: "\n\nOne moment.",
        reasoning_content: "Two lookups.\n",
        tool_calls: [
          { name: "get_weather", arguments: { city: "北京" } },
          { name: "search", arguments: { query: "北京 烤鸭" } },
        ],
      });
  });
  it("distill spellings of the markers", () => {
    t.test('<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>search\n```json\n{"query": "r1"}\n```<｜tool_call_end｜><｜tool_calls_end｜>').expect({
      content: null,
      tool_calls: [{ name: "search", arguments: { query: "r1" } }],
    });
  });
  it("the short <｜tool▁calls｜> opener and no newline before the closing fence", () => {
    t.test('<｜tool▁calls｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Seoul"}```<｜tool▁call▁end｜><｜tool▁calls▁end｜>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Seoul" } }],
    });
  });
  it("an unknown tool inside a section: the whole section stays content", () => {
    const text = `<｜tool▁calls▁begin｜>${call("delete_all", "{}")}<｜tool▁calls▁end｜>`;
    t.test(text).errors([{ type: "unknown_tool", name: "delete_all" }]).expect({ content: text });
  });
  it("a plain answer after reasoning", () => {
    t.test("<think>\nEasy.\n</think>\n\nHello! 你好！").expect({ content: "\n\nHello! 你好！", reasoning_content: "\nEasy.\n" });
  });
});
