import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "./_tools.js";

const t = tester("harmony").tools(TOOLS).promptSuffix("<|start|>assistant");

describe("harmony", () => {
  it("analysis is reasoning, then a call on commentary", () => {
    t.test('<|channel|>analysis<|message|>Need Oslo weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>').expect({
      content: null,
      reasoning_content: "Need Oslo weather.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" }, arguments_text: '{"city": "Oslo"}' }],
    });
  });
  it("analysis then a final answer with unicode", () => {
    t.test("<|channel|>analysis<|message|>Greeting.<|end|><|start|>assistant<|channel|>final<|message|>Hallo! Grüße 👋<|return|>").expect({
      content: "Hallo! Grüße 👋",
      reasoning_content: "Greeting.",
    });
  });
  it("recipient in the role header, right after the prompt's <|start|>assistant", () => {
    t.test(' to=functions.search<|channel|>commentary json<|message|>{"query": "gpt-oss", "limit": 2}<|call|>').expect({
      content: null,
      tool_calls: [{ name: "search", arguments: { query: "gpt-oss", limit: 2 } }],
    });
  });
  it("a preamble on commentary, then two calls, one on the analysis channel", () => {
    t.test(
      '<|channel|>commentary<|message|>Checking both.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Bergen"}<|call|><|start|>assistant to=functions.write_file<|channel|>analysis <|constrain|>json<|message|>{"path": "ø.txt", "content": "blåbær"}<|call|>',
    ).expect({
      content: "Checking both.",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Bergen" } },
        { name: "write_file", arguments: { path: "ø.txt", content: "blåbær" } },
      ],
    });
  });
  it("a body that is not JSON is reported and kept", () => {
    t.test("<|channel|>commentary to=functions.search <|constrain|>json<|message|>weather in Oslo<|call|>")
      .errors([{ type: "invalid_arguments", name: "search" }])
      .expect({ content: "<|channel|>commentary to=functions.search <|constrain|>json<|message|>weather in Oslo<|call|>" });
  });
});
