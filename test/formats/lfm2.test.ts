/**
 * lfm2: Liquid LFM2 / LFM2.5. Each case runs one-shot, code point by code point and at random cuts;
 * the reconstruction renders calls through LFM2.5's template (the LFM2 and LFM2.5-Instruct templates
 * render no tool calls, so they cannot be reconstructed) and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] } } },
  { type: "function", function: { name: "search", parameters: { type: "object", properties: { query: { type: "string" }, safe: { type: "boolean" } }, required: ["query"] } } },
];

const t = tester("lfm2").tools(TOOLS);

describe("lfm2 completions", () => {
  it("one call", () => {
    t.test('<|tool_call_start|>[get_weather(city="Paris")]<|tool_call_end|>').expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Paris" } }] });
  });

  it("parallel calls, then text", () => {
    t.test('<|tool_call_start|>[get_weather(city="Paris", days=2), search(query="bistro near Louvre")]<|tool_call_end|>Checking now.').expect({
      content: "Checking now.",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Paris", days: 2 } },
        { name: "search", arguments: { query: "bistro near Louvre" } },
      ],
    });
  });

  it("LFM2.5 reasoning, then a call with unicode and an escaped quote", () => {
    t.test("<think>User wants food.</think><|tool_call_start|>[search(query=\"what's good in 札幌?\", safe=True)]<|tool_call_end|>").expect({
      content: null,
      reasoning_content: "User wants food.",
      tool_calls: [{ name: "search", arguments: { query: "what's good in 札幌?", safe: true } }],
    });
  });

  it("JSON call objects in the same markers", () => {
    t.test('<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Madrid"}}, {"name": "search", "arguments": {"query": "tapas"}}]<|tool_call_end|>').expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "Madrid" } },
        { name: "search", arguments: { query: "tapas" } },
      ],
    });
  });

  it("two blocks with text between", () => {
    t.test('<|tool_call_start|>[get_weather(city="Rome")]<|tool_call_end|> and then <|tool_call_start|>[search(query="gelato")]<|tool_call_end|>').expect({
      content: " and then ",
      tool_calls: [
        { name: "get_weather", arguments: { city: "Rome" } },
        { name: "search", arguments: { query: "gelato" } },
      ],
    });
  });

  it("an empty block and an unknown function keep their text", () => {
    t.test("<|tool_call_start|><|tool_call_end|>").errors([{ type: "malformed" }]).expect({ content: "<|tool_call_start|><|tool_call_end|>" });
    const raw = '<|tool_call_start|>[unknown_function(arg="value")]<|tool_call_end|>';
    t.test(raw).errors([{ type: "unknown_tool", name: "unknown_function" }]).expect({ content: raw });
  });
});

describe("lfm2 reconstruction through the real template", () => {
  it("LFM2.5-8B-A1B.jinja", async () => {
    const r = await reconstruct("LFM2.5-8B-A1B.jinja");
    expect(r.format).toBe("lfm2");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.errors).toEqual([]);
  });
});
