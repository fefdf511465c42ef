import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("kimi-k2").tools(TOOLS);
const call = (id: string, args: string) => `<|tool_call_begin|>${id}<|tool_call_argument_begin|>${args}<|tool_call_end|>`;
const section = (body: string) => `<|tool_calls_section_begin|>${body}<|tool_calls_section_end|>`;

describe("kimi-k2", () => {
  it("one call keeps the functions.f:N id", () => {
    t.test(section(call("functions.get_weather:0", '{"city": "Beijing"}'))).expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Beijing" }, id: "functions.get_weather:0", arguments_text: '{"city": "Beijing"}' }],
    });
  });
  it("text before, parallel calls with counters across the conversation, unicode", () => {
    t.test(`I'll check. ${section(call("functions.get_weather:3", '{"city": "東京"}') + call("functions.search:4", '{"query": "東京 ラーメン"}'))}`).expect({
      content: "I'll check. ",
      tool_calls: [
        { name: "get_weather", arguments: { city: "東京" }, id: "functions.get_weather:3" },
        { name: "search", arguments: { query: "東京 ラーメン" }, id: "functions.search:4" },
      ],
    });
  });
  it("thinking: a call inside <think> with the section markers omitted", () => {
    t.test(`<think>Look it up. ${call("functions.search:0", '{"query": "kimi"}')} Done.</think>It's a model.`).expect({
      content: "It's a model.",
      reasoning_content: "Look it up.  Done.",
      tool_calls: [{ name: "search", arguments: { query: "kimi" }, id: "functions.search:0" }],
    });
  });
  it("call, then content after the section", () => {
    t.test(`${section(call("functions.get_weather:0", '{"city": "Paris"}'))}Voilà.`).expect({
      content: "Voilà.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Paris" }, id: "functions.get_weather:0" }],
    });
  });
  it("a header that is not an id is malformed and stays content", () => {
    const text = section(call("functions.get_weather", '{"city": "Paris"}'));
    t.test(text).errors([{ type: "malformed" }]).expect({ content: text });
  });
  it("angle brackets inside the arguments", () => {
    t.test(section(call("functions.write_file:0", '{"path": "a.html", "content": "<div>hi</div>"}'))).expect({
      content: null,
      tool_calls: [{ name: "write_file", arguments: { path: "a.html", content: "<div>hi</div>" }, id: "functions.write_file:0" }],
    });
  });
});
