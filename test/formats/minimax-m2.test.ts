/**
 * minimax-m2: MiniMax-M2. Each case runs one-shot, code point by code point and at random cuts; the
 * reconstruction renders calls through the real template and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  { type: "function", function: { name: "search_web", parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] } } },
  {
    type: "function",
    function: {
      name: "update_settings",
      parameters: { type: "object", properties: { config: { anyOf: [{ type: "object" }, { type: "null" }] }, verbose: { type: "boolean" }, label: { anyOf: [{ type: "string" }, { type: "null" }] } } },
    },
  },
  { type: "function", function: { name: "render_html", parameters: { type: "object", properties: { html: { type: "string" } }, required: ["html"] } } },
];

const t = tester("minimax-m2").tools(TOOLS);

describe("minimax-m2 completions", () => {
  it("the prompt opened <think>: reasoning, then one call", () => {
    t.promptSuffix("]~b]ai\n<think>\n")
      .test("Search for it.\n</think>\n\n<minimax:tool_call>\n<invoke name=\"search_web\">\n<parameter name=\"query\">MiniMax M2 release</parameter>\n<parameter name=\"limit\">5</parameter>\n</invoke>\n</minimax:tool_call>")
      .expect({ content: null, reasoning_content: "Search for it.\n", tool_calls: [{ name: "search_web", arguments: { query: "MiniMax M2 release", limit: 5 } }] });
  });

  it("several invokes in one block, unicode", () => {
    t.test('<minimax:tool_call>\n<invoke name="search_web">\n<parameter name="query">OpenAI</parameter>\n</invoke>\n<invoke name="search_web">\n<parameter name="query">東京の天気 ☔</parameter>\n</invoke>\n</minimax:tool_call>').expect({
      content: null,
      tool_calls: [
        { name: "search_web", arguments: { query: "OpenAI" } },
        { name: "search_web", arguments: { query: "東京の天気 ☔" } },
      ],
    });
  });

  it("text before and after the block", () => {
    t.test('Let me check. <minimax:tool_call><invoke name="update_settings"><parameter name="verbose">true</parameter></invoke></minimax:tool_call> Done.').expect({
      content: "Let me check.  Done.",
      tool_calls: [{ name: "update_settings", arguments: { verbose: true } }],
    });
  });

  it("union types: an object, an explicit null, a string that is not null", () => {
    t.test('<minimax:tool_call>\n<invoke name="update_settings">\n<parameter name="config">{"theme": "dark", "fontSize": 14}</parameter>\n<parameter name="label">null</parameter>\n</invoke>\n<invoke name="update_settings">\n<parameter name="label">nullable text</parameter>\n</invoke>\n</minimax:tool_call>').expect({
      content: null,
      tool_calls: [
        { name: "update_settings", arguments: { config: { theme: "dark", fontSize: 14 }, label: null } },
        { name: "update_settings", arguments: { label: "nullable text" } },
      ],
    });
  });

  it("HTML and a closing-tag look-alike inside a value", () => {
    const html = '<div class="x"><p>Use </parameter> tags</p></div>';
    t.test(`<minimax:tool_call><invoke name="render_html"><parameter name="html">${html}</parameter></invoke></minimax:tool_call>`).expect({
      content: null,
      tool_calls: [{ name: "render_html", arguments: { html } }],
    });
  });

  it("one unknown invoke among valid ones: only its text becomes content", () => {
    t.test('<minimax:tool_call>\n<invoke name="search_web">\n<parameter name="query">a</parameter>\n</invoke>\n<invoke name="rm_rf">\n<parameter name="path">/</parameter>\n</invoke>\n</minimax:tool_call>')
      .errors([{ type: "unknown_tool", name: "rm_rf" }])
      .expect({ content: '<invoke name="rm_rf">\n<parameter name="path">/</parameter>\n</invoke>', tool_calls: [{ name: "search_web", arguments: { query: "a" } }] });
  });
});

describe("minimax-m2 reconstruction through the real template", () => {
  it("MiniMax-M2.jinja", async () => {
    const r = await reconstruct("MiniMax-M2.jinja");
    expect(r.format).toBe("minimax-m2");
    expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
    expect(r.result.errors).toEqual([]);
  });
});
