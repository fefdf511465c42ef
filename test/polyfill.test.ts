/**
 * The tool polyfill (src/template/polyfill.ts, docs/polyfills.md): templates without tool support get
 * the tool list and the json-block instruction, earlier calls as ```json blocks and tool results as
 * user text; their completions parse as json-block. Templates with native tools render unchanged.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { templateFromConfig, type ChatTemplate } from "../src/template/index.js";
import { FIXTURES } from "./helpers/fixtures.js";

interface PolyfillFixture {
  template: string;
  conversation: string;
  bos_token: string;
  eos_token: string;
  request: Record<string, unknown>;
  expected: string;
}

const fixtures = JSON.parse(readFileSync(join(FIXTURES, "polyfill", "prompts.json"), "utf8")) as PolyfillFixture[];
const source = (name: string) => readFileSync(join(FIXTURES, "templates", `${name}.jinja`), "utf8");
const load = (name: string, tokens = { bos_token: "<s>", eos_token: "</s>" }): ChatTemplate => templateFromConfig({ chat_template: source(name), ...tokens });

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};
const ASK = { role: "user", content: "Weather in Oslo and Bergen?" };
const NO_TOOLS = ["google-gemma-2-2b-it", "microsoft-Phi-3.5-mini-instruct", "llama-cpp-rwkv-world"];

describe("prompts of templates without tools", () => {
  for (const f of fixtures) {
    it(`${f.template} x ${f.conversation}: byte-identical to transformers on the rewritten conversation`, () => {
      const t = load(f.template, { bos_token: f.bos_token, eos_token: f.eos_token });
      expect(t.caps.supportsTools).toBe(false);
      expect(t.render(f.request)).toBe(f.expected);
    });
  }

  it("gemma-2 rejects system messages, so the instructions open the first user turn", () => {
    const t = load("google-gemma-2-2b-it");
    const prompt = t.render({ messages: [{ role: "system", content: "Be brief." }, ASK], tools: [WEATHER] });
    expect(prompt.startsWith("<s><start_of_turn>user\nBe brief.\n\nYou have access to the following tools:\n")).toBe(true);
    expect(prompt).toContain('{"name": "get_weather", "description": "Current weather", "parameters": {');
    expect(prompt.endsWith("Weather in Oslo and Bergen?<end_of_turn>\n<start_of_turn>model\n")).toBe(true);
    // Without the polyfill the template raises, as it does in transformers.
    expect(() => t.render({ messages: [{ role: "system", content: "Be brief." }, ASK], tools: [WEATHER] }, { polyfill: "never" })).toThrow(
      /System role not supported/,
    );
  });

  it("phi-3.5 takes a system message: the instructions go there", () => {
    const prompt = load("microsoft-Phi-3.5-mini-instruct").render({ messages: [ASK], tools: [WEATHER] });
    expect(prompt.startsWith("<|system|>\nYou have access to the following tools:\n")).toBe(true);
    expect(prompt).toContain("<|end|>\n<|user|>\nWeather in Oslo and Bergen?<|end|>\n<|assistant|>\n");
  });

  it("tool_choice and parallel_tool_calls are stated", () => {
    const t = load("llama-cpp-rwkv-world");
    expect(t.render({ messages: [ASK], tools: [WEATHER], tool_choice: "required" })).toContain("You must call at least one tool");
    expect(t.render({ messages: [ASK], tools: [WEATHER], tool_choice: { type: "function", function: { name: "get_weather" } } })).toContain(
      'You must call the tool "get_weather"',
    );
    expect(t.render({ messages: [ASK], tools: [WEATHER], tool_choice: "none" })).toContain("Do not call any tool");
    expect(t.render({ messages: [ASK], tools: [WEATHER], parallel_tool_calls: false })).toContain("at most one at a time");
  });

  it("without tools in the request nothing changes", () => {
    for (const name of NO_TOOLS) {
      const t = load(name);
      expect(t.render({ messages: [ASK] })).toBe(t.render({ messages: [ASK] }, { polyfill: "never" }));
    }
  });
});

describe("completions of polyfilled templates", () => {
  const calls = [
    { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Oslo"}' } },
    { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city": "Bergen"}' } },
  ];
  for (const name of NO_TOOLS) {
    it(`${name}: an assistant turn rendered by the polyfill parses back to the same calls`, () => {
      const t = load(name);
      const request = { messages: [ASK], tools: [WEATHER] };
      expect(t.formatFor(request)).toBe("json-block");
      const prompt = t.render(request);
      const full = t.render({ ...request, messages: [ASK, { role: "assistant", content: "Checking both.", tool_calls: calls }] }, { addGenerationPrompt: false });
      // What the model would write after the generation prompt (up to its end-of-turn marker).
      const header = prompt.slice(prompt.lastIndexOf("\n", prompt.length - 2) + 1).trimEnd();
      const start = full.indexOf(header, prompt.length - header.length - 40) + header.length;
      const completion = full.slice(start).replace(/(<end_of_turn>|<\|end\|>)?\s*(<\/s>)?$/, "");
      const result = t.parse(completion, request);
      expect(result.errors).toEqual([]);
      expect(result.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
        ["get_weather", { city: "Oslo" }],
        ["get_weather", { city: "Bergen" }],
      ]);
      expect(result.message.content?.trim()).toBe("Checking both.");
      expect(result.finish_reason).toBe("tool_calls");
    });
  }

  it("a streamed completion gives the same calls", () => {
    const t = load("google-gemma-2-2b-it");
    const request = { messages: [ASK], tools: [WEATHER] };
    const parser = t.streamParser(request);
    const text = 'Sure.\n```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```';
    const deltas = [...[...text].flatMap((ch) => parser.push(ch)), ...parser.end()];
    const args = deltas.flatMap((d) => d.tool_calls ?? []).map((c) => c.function?.arguments ?? "").join("");
    expect(JSON.parse(args)).toEqual({ city: "Oslo" });
  });
});

describe("polyfill modes", () => {
  const native = "Qwen-Qwen2.5-7B-Instruct";
  const request = { messages: [ASK], tools: [WEATHER] };

  it("auto leaves templates with native tools unchanged", () => {
    const t = load(native);
    expect(t.caps.supportsTools).toBe(true);
    expect(t.render(request)).toBe(t.render(request, { polyfill: "never" }));
    expect(t.render(request)).toContain("<tools>");
    expect(t.formatFor(request)).toBe("hermes");
  });

  it("always replaces the native tool prompt and parses json-block", () => {
    const t = load(native);
    const prompt = t.render(request, { polyfill: "always" });
    expect(prompt).not.toContain("<tools>");
    expect(prompt).toContain("To call a tool, answer with a fenced JSON block");
    expect(t.formatFor(request, { polyfill: "always" })).toBe("json-block");
    const parsed = t.parse('```json\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n```', request, { render: { polyfill: "always" } });
    expect(parsed.message.tool_calls?.[0]?.function.name).toBe("get_weather");
  });

  it("auto asks whether tools are printed after a system message when the request starts with one (functiongemma)", () => {
    const t = load("vllm-tool_chat_template_functiongemma");
    expect(t.caps).toMatchObject({ rendersToolDefinitions: false, rendersToolDefinitionsAfterSystem: true, rendersToolCalls: true });
    const withSystem = { messages: [{ role: "system", content: "Be brief." }, ASK], tools: [WEATHER] };
    // The template lists the tools inside the system turn itself: nothing is added.
    expect(t.render(withSystem)).toBe(t.render(withSystem, { polyfill: "never" }));
    expect(t.render(withSystem)).toContain("Be brief.\nAvailable functions:\nFunction: get_weather");
    // Without one it never prints them: the list is added.
    expect(t.render(request)).toContain("You have access to the following tools:");
  });

  it("never renders what the template renders (tools ignored by templates without them)", () => {
    const t = load("microsoft-Phi-3.5-mini-instruct");
    expect(t.render(request, { polyfill: "never" })).toBe(t.render({ messages: [ASK] }));
  });
});

describe("polyfill copies keep a message's key order", () => {
  it("integer-like keys stay where the request text wrote them, as Python's {**m, 'content': ...} keeps them", async () => {
    const { readJson } = await import("../src/request/read-json.js");
    const t = templateFromConfig({ chat_template: "{% for m in messages %}{% for k, v in m|items %}{{ k }};{% endfor %}|{% endfor %}" });
    const body = readJson(
      '{"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}],"messages":[' +
        '{"role":"system","9":"s","content":"sys"},{"role":"user","5":"x","content":"hi"},' +
        '{"role":"assistant","3":"a","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},' +
        '{"role":"tool","tool_call_id":"c1","content":"ok"}]}',
    );
    // This template names no system role, so the system text (with the tool list) joins the first user
    // message (its copy keeps role, "5", content); the assistant's calls become content (tool_calls
    // dropped, "3" stays second); the tool result is a new user message.
    expect(t.render(body as never, { polyfill: "always" })).toBe("role;5;content;|role;3;content;|role;content;|");
  });
});
