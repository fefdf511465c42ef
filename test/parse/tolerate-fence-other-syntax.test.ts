/**
 * The `fence` and `other-syntax` tolerances (issue 18, kinds 5 and 4). A Markdown fence that opens the
 * output and holds only a call, in place of the family's markers, belongs to the call; a region of the
 * family that holds the other syntax it also speaks is read in that syntax. Both are reported as
 * repaired; one-shot and every split (the tester); nothing is invented.
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const WEATHER = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string" }, location: { type: "string" } }, additionalProperties: false } } }];
const SEARCH = [{ type: "function", function: { name: "brave_web_search", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } } }];

describe("fence", () => {
  it("gemma4: Gemma 3's ```tool_code convention written by Gemma 4 E2B (vllm-mlx#622)", () => {
    tester("gemma4")
      .tools(WEATHER)
      .test('```tool_code\nget_weather(city="Tokyo", unit="celsius")\n```')
      .errors([{ type: "repaired", repair: "fence", name: "get_weather", call: 0, text: "```tool_code" }])
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Tokyo", unit: "celsius" } }] });
  });

  it("hermes: a ```json fence in place of <tool_call> (kronk#950), and text after it", () => {
    tester("hermes")
      .tools(WEATHER)
      .test('```json\n{"name": "get_weather", "arguments": {"location": "Paris"}}\n```\nChecking.')
      .errors([{ type: "repaired", repair: "fence", call: 0, text: "```json" }])
      .expect({ content: "\nChecking.", tool_calls: [{ name: "get_weather", arguments: { location: "Paris" } }] });
  });

  it("llama3-json: a ```json fence around Llama 3.2's call object (ollama#13519)", () => {
    tester("llama3-json")
      .tools(SEARCH)
      .test('```json\n{"name": "brave_web_search", "parameters": {"query": "install ollama models"}}\n```')
      .errors([{ type: "repaired", repair: "fence", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "brave_web_search", arguments: { query: "install ollama models" } }] });
  });

  it("a code block that is no call, or a fence after prose, is content without a repair", () => {
    tester("hermes")
      .tools(WEATHER)
      .test('```json\n{"city": "Paris"}\n```')
      .expect({ content: '```json\n{"city": "Paris"}\n```', tool_calls: [] });
    tester("gemma4")
      .tools(WEATHER)
      .test('Like this:\n```tool_code\nget_weather(city="Tokyo")\n```')
      .expect({ content: 'Like this:\n```tool_code\nget_weather(city="Tokyo")\n```', tool_calls: [] });
  });

  it("a fenced call that names an undeclared tool or does not validate keeps its text, with its error", () => {
    tester("hermes")
      .tools(WEATHER)
      .test('```json\n{"name": "rm", "arguments": {"path": "/"}}\n```')
      .errors([{ type: "unknown_tool", name: "rm" }])
      .expect({ content: '```json\n{"name": "rm", "arguments": {"path": "/"}}\n```', tool_calls: [] });
    tester("gemma4")
      .tools(WEATHER)
      .test('```tool_code\nget_weather(town="Tokyo")\n```')
      .errors([{ type: "invalid_arguments", name: "get_weather" }])
      .expect({ content: '```tool_code\nget_weather(town="Tokyo")\n```', tool_calls: [] });
  });
});

describe("fence around a region", () => {
  const FILTER = [{ type: "function", function: { name: "filter_dataframe_by_search_term", parameters: { type: "object", properties: { column_name: { type: "string" }, search_terms: { type: "array", items: { type: "string" } } }, required: ["column_name"] } } }];
  const SAID = "The search term is \"tech experts\".\n";
  const LIST = "[filter_dataframe_by_search_term(column_name='Division', search_terms=['tech experts'])]";

  it("pythonic: Gemma 3 27B's ```tool_code fence after a sentence (vllm#14734): both fence lines belong to the call", () => {
    tester("pythonic")
      .tools(FILTER)
      .test(`${SAID}\`\`\`tool_code\n${LIST}\n\`\`\``)
      .errors([
        { type: "repaired", repair: "fence", call: 0, text: "```tool_code" },
        { type: "repaired", repair: "fence", call: 0, text: "```" },
      ])
      .expect({ content: SAID, tool_calls: [{ name: "filter_dataframe_by_search_term", arguments: { column_name: "Division", search_terms: ["tech experts"] } }] });
  });

  it("a fence whose list is no call, or whose call does not validate, is content, fence lines included", () => {
    tester("pythonic")
      .tools(FILTER)
      .test(`${SAID}\`\`\`tool_code\n[1, 2]\n\`\`\``)
      .expect({ content: `${SAID}\`\`\`tool_code\n[1, 2]\n\`\`\``, tool_calls: [] });
    tester("pythonic")
      .tools(FILTER)
      .test("```tool_code\n[filter_dataframe_by_search_term(search_terms=['x'])]\n```")
      .errors([{ type: "invalid_arguments", name: "filter_dataframe_by_search_term" }])
      .expect({ content: "```tool_code\n[filter_dataframe_by_search_term(search_terms=['x'])]\n```", tool_calls: [] });
  });

  it("text between the call and the closing fence line: the line is content", () => {
    tester("pythonic")
      .tools(FILTER)
      .test(`\`\`\`tool_code\n${LIST}\nDone.\n\`\`\``)
      .errors([{ type: "repaired", repair: "fence", text: "```tool_code" }])
      .expect({ content: "\nDone.\n```", tool_calls: [{ name: "filter_dataframe_by_search_term", arguments: { column_name: "Division", search_terms: ["tech experts"] } }] });
  });
});

describe("other-syntax", () => {
  it("pythonic: Llama 4 writes a JSON call object inside <|python_start|> (vllm#16214)", () => {
    tester("pythonic")
      .tools(SEARCH)
      .test('<|python_start|>{"name": "brave_web_search", "parameters": {"query": "latest news"}}<|python_end|>')
      .errors([{ type: "repaired", repair: "other-syntax", name: "brave_web_search", call: 0, text: "<|python_start|>" }])
      .expect({ content: null, tool_calls: [{ name: "brave_web_search", arguments: { query: "latest news" } }] });
  });

  it("the family's own syntax in the same region is no repair", () => {
    tester("pythonic")
      .tools(SEARCH)
      .test('<|python_start|>[brave_web_search(query="latest news")]<|python_end|>')
      .expect({ content: null, tool_calls: [{ name: "brave_web_search", arguments: { query: "latest news" } }] });
  });

  it("a JSON object that is no valid call keeps its text, with its error and no repair", () => {
    tester("pythonic")
      .tools(SEARCH)
      .test('<|python_start|>{"name": "brave_web_search", "parameters": {"q": 1}}<|python_end|>')
      .errors([{ type: "invalid_arguments", name: "brave_web_search" }])
      .expect({ content: '<|python_start|>{"name": "brave_web_search", "parameters": {"q": 1}}<|python_end|>', tool_calls: [] });
    tester("pythonic")
      .tools(SEARCH)
      .test('<|python_start|>{"title": "news"}<|python_end|>')
      .errors([{ type: "malformed" }])
      .expect({ content: '<|python_start|>{"title": "news"}<|python_end|>', tool_calls: [] });
  });
});
