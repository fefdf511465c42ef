/**
 * ChatTemplate.render: the context transformers builds, continue_final_message, caps probes, errors.
 * Expected prompts of real templates were produced with transformers' render_jinja_template (Python
 * reference in .ref/) and are committed here as literals; the test itself needs no Python.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../scripts/render-fixtures.mjs";
import { ChatwireError } from "../src/errors.js";
import { readJson, readSharedJson } from "../src/request/index.js";
import { loadTemplate, type RenderOptions } from "../src/template/index.js";

const user = (content: unknown) => ({ messages: [{ role: "user", content }] });
const tmpl = (chat_template: string, tokens: Record<string, string> = {}) => loadTemplate({ chat_template, ...tokens });

async function renderError(template: string, request: unknown, options?: RenderOptions): Promise<ChatwireError> {
  const t = await tmpl(template);
  try {
    t.render(request, options);
  } catch (err) {
    expect(err).toBeInstanceOf(ChatwireError);
    return err as ChatwireError;
  }
  throw new Error("expected render to fail");
}

describe("the render context", () => {
  it("tools and documents are None when absent; add_generation_prompt defaults to true", async () => {
    const t = await tmpl("{{ tools is none }}|{{ documents is none }}|{{ add_generation_prompt }}|{{ tools is defined }}");
    expect(t.render(user("x"))).toBe("True|True|True|True");
    expect(t.render(user("x"), { addGenerationPrompt: false })).toBe("True|True|False|True");
  });
  it("passes the normalised tools and messages", async () => {
    const t = await tmpl("{% for tool in tools %}{{ tool.function.name }}:{{ tool.function.parameters | tojson }}{% endfor %}|{{ messages | length }}");
    const body = { input: "hi", tools: [{ type: "function", name: "f", parameters: { type: "object", properties: { t: { default: 1.5 } } } }] };
    expect(t.render(body)).toBe('f:{"type": "object", "properties": {"t": {"default": 1.5}}}|1');
  });
  it("special tokens, then variables, which may override them; documents from variables", async () => {
    const t = await tmpl("{{ bos_token }}{{ eos_token }}|{{ enable_thinking }}|{{ documents[0].title }}", { bos_token: "<s>", eos_token: "</s>" });
    expect(t.render(user("x"), { variables: { enable_thinking: false, documents: [{ title: "D" }] } })).toBe("<s></s>|False|D");
    expect(t.render(user("x"), { variables: { bos_token: "[B]", documents: [{ title: "D" }] } })).toBe("[B]</s>||D");
  });
  it("chat_template_kwargs in the request body are variables; explicit options win", async () => {
    const t = await tmpl("{{ enable_thinking }}");
    expect(t.render({ ...user("x"), chat_template_kwargs: { enable_thinking: false } })).toBe("False");
    expect(t.render({ ...user("x"), chat_template_kwargs: { enable_thinking: false } }, { variables: { enable_thinking: true } })).toBe("True");
  });
  it("variables cannot replace what chatwire sets", async () => {
    const err = await renderError("x", user("x"), { variables: { messages: [] } });
    expect(err.code).toBe("invalid_request");
    expect(err.field).toBe("variables.messages");
  });
  it("strftime_now uses the injected clock", async () => {
    const t = await tmpl("{{ strftime_now('%d %b %Y') }}");
    expect(t.render(user("x"), { now: new Date(2026, 0, 2, 3, 4, 5) })).toBe("02 Jan 2026");
    expect(t.render(user("x"), { now: () => new Date(2025, 6, 26) })).toBe("26 Jul 2025");
  });
  it("never mutates the request", async () => {
    const t = await loadTemplate("qwen3");
    const body = {
      messages: [
        { role: "user", content: [{ type: "text", text: "a" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: '{"x": 1}' } }] },
        { role: "tool", tool_call_id: "c", content: "r" },
      ],
    };
    const before = structuredClone(body);
    t.render(body);
    t.render(body, { continueFinalMessage: false, addGenerationPrompt: false });
    expect(body).toEqual(before);
  });
});

describe("errors", () => {
  it("raise_exception surfaces the template's own message", async () => {
    const err = await renderError("{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}", user("x"));
    expect(err.code).toBe("template_error");
    expect(err.message).toContain("Conversation roles must alternate user/assistant/user/assistant/...");
  });
  it("request errors name their field", async () => {
    const err = await renderError("x", { messages: [{ role: "tool", tool_call_id: "nope", content: "x" }] });
    expect(err.code).toBe("invalid_request");
    expect(err.field).toBe("messages[0].tool_call_id");
  });
  it("limits stop runaway templates", async () => {
    const err = await renderError("{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}", user("x"), {
      limits: { maxSteps: 10_000 },
    });
    expect(err.code).toBe("limit_exceeded");
  });
});

describe("continue_final_message (transformers' tag trick)", () => {
  const body = {
    messages: [
      { role: "user", content: "List three primary colours as a JSON array." },
      { role: "assistant", content: '["red", ' },
    ],
  };
  it("Qwen3 leaves the assistant message open, byte-identical to transformers", async () => {
    const t = await loadTemplate("qwen3");
    expect(t.render(body, { continueFinalMessage: true })).toBe(
      '<|im_start|>user\nList three primary colours as a JSON array.<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n["red", ',
    );
  });
  it("trims when the template strips the message end, and continues the last text part", async () => {
    const t = await tmpl(
      "{% for m in messages %}{% if m.content is string %}[{{ m.content | trim }}]{% else %}{% for p in m.content %}{% if p.text is defined %}[{{ p.text }}]{% endif %}{% endfor %}{% endif %}{% endfor %}",
    );
    expect(t.caps.readsContentParts).toBe(true);
    expect(t.render(user("hello  "), { continueFinalMessage: true })).toBe("[hello");
    expect(t.render(user([{ type: "image" }, { type: "text", text: "tx " }]), { continueFinalMessage: true })).toBe("[tx ");
  });
  it("continues a named field's last text part without writing to the caller's parts (plain or read by readSharedJson)", async () => {
    const t = await tmpl("{% for m in messages %}{{ m.role }}:{{ m.content }}{% for p in m.thinking or [] %}[{{ p.text }}]{% endfor %}{% endfor %}");
    const request = { messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "x", thinking: [{ type: "text", text: "deep" }, { type: "text", text: "er " }] }] };
    const text = JSON.stringify(request);
    expect(t.render(request, { continueFinalMessage: "thinking" })).toBe("user:hiassistant:x[deep][er ");
    expect(JSON.stringify(request)).toBe(text);
    for (let i = 0; i < 2; i++) expect(t.render(readSharedJson(text) as never, { continueFinalMessage: "thinking" })).toBe("user:hiassistant:x[deep][er ");
    expect(t.render(request, { continueFinalMessage: "thinking" })).toBe("user:hiassistant:x[deep][er ");
  });
  it("transformers' errors", async () => {
    const both = await renderError("{{ messages[-1].content }}", user("x"), { continueFinalMessage: true, addGenerationPrompt: true });
    expect(both.message).toContain("continue_final_message and add_generation_prompt are not compatible");
    const noField = await renderError("{{ messages[-1].text }}", user("x"), { continueFinalMessage: true });
    expect(noField.message).toBe('continue_final_message is set to "content" but this is not an accepted field in the chat_template');
    const dropped = await renderError("{% for m in messages %}{{ m.role }}{% endfor %}{# content #}", user("x"), { continueFinalMessage: true });
    expect(dropped.message).toContain("continue_final_message is set but the final message does not appear in the chat");
    const noText = await renderError("{{ messages[-1].content }}", { messages: [{ role: "user", content: [{ type: "image" }] }] }, { continueFinalMessage: true });
    expect(noText.message).toBe("continue_final_message is set but we could not find any text to continue in the final message!");
  });
});

describe("caps", () => {
  it("a template that reads content parts gets them", async () => {
    const t = await tmpl(
      "{% for m in messages %}{% if m.content is string %}{{ m.content }}{% else %}{% for p in m.content %}<{{ p.type }}:{{ p.text }}>{% endfor %}{% endif %}{% endfor %}",
    );
    expect(t.caps.readsContentParts).toBe(true);
    expect(t.render(user([{ type: "input_text", text: "a" }, { type: "text", text: "b" }]))).toBe("<text:a><text:b>");
  });
  it("a template that would print the list, or fail on it, gets a joined string", async () => {
    for (const source of ["{% for m in messages %}{{ m.content }}{% endfor %}", "{% for m in messages %}{{ m.content + '!' }}{% endfor %}"]) {
      const t = await tmpl(source);
      expect(t.caps.readsContentParts).toBe(false);
      expect(t.render(user([{ type: "text", text: "a" }, { type: "text", text: "b" }]))).toMatch(/^a\nb!?$/);
    }
  });
  it("content parts are probed per role: a template that prints user parts but concatenates tool results gets joined results", async () => {
    const t = await tmpl(
      "{% for m in messages %}{% if m.role == 'tool' %}[{{ m.name }}: {{ m.content + '' }}]{% elif m.content is string %}{{ m.content }}" +
        "{% else %}{% for p in m.content %}<{{ p.text }}>{% endfor %}{% endif %}{% if m.tool_calls %}{% for c in m.tool_calls %}{{ c.function.name }}{{ c.function.arguments | tojson }}{% endfor %}{% endif %}{% endfor %}",
    );
    expect(t.caps.contentPartsByRole).toEqual({ user: true, system: true, assistant: true, tool: false });
    const parts = (text: string) => [{ type: "text", text }];
    const prompt = t.render({
      messages: [
        { role: "system", content: parts("s") },
        { role: "user", content: parts("u") },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: [...parts("r1"), ...parts("r2")] },
      ],
    });
    expect(prompt).toBe("<s><u>f{}[f: r1\nr2]");
  });
  it("developer, tools, system, variables and reasoning", async () => {
    const qwen = await loadTemplate("qwen3");
    expect(qwen.caps).toMatchObject({
      readsContentParts: false,
      knowsDeveloperRole: false,
      supportsTools: true,
      supportsSystem: true,
      variables: ["enable_thinking"],
    });
    expect(qwen.caps.reasoning?.start).toContain("<think>");
    const noSystem = await tmpl("{% if messages[0].role == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{{ messages[0].content }}");
    expect(noSystem.caps).toMatchObject({ supportsSystem: false, supportsTools: false, knowsDeveloperRole: false });
    const dev = await tmpl("{% for m in messages %}{% if m.role == 'developer' %}D:{% endif %}{{ m.content }}{% endfor %}");
    expect(dev.caps.knowsDeveloperRole).toBe(true);
    expect(dev.render({ messages: [{ role: "developer", content: "x" }] })).toBe("D:x");
    const plain = await tmpl("{% for m in messages %}{{ m.role }}:{{ m.content }}{% endfor %}");
    expect(plain.render({ messages: [{ role: "developer", content: "x" }] })).toBe("system:x");
  });
});

describe("format", () => {
  it("is detected from the source, json-block when the template has no tool syntax", async () => {
    expect((await loadTemplate("qwen3")).format).toBe("hermes");
    expect((await loadTemplate("chatml-tools")).format).toBe("hermes");
    expect((await tmpl("{{ messages[0].content }}")).format).toBe("json-block");
  });
});

describe("built-in chatml-tools", () => {
  it("renders a tool round trip byte-identical to transformers, and parses its own calls back", async () => {
    const t = await loadTemplate("chatml-tools");
    const request = readJson("{\"messages\": [{\"role\": \"system\", \"content\": \"Be brief.\"}, {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"Weather in Paris?\"}, {\"type\": \"text\", \"text\": \"And Rome.\"}]}, {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"c1\", \"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Paris\\\", \\\"n\\\": 1.0}\"}}, {\"id\": \"c2\", \"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"arguments\": \"{\\\"city\\\": \\\"Rome\\\"}\"}}]}, {\"role\": \"tool\", \"tool_call_id\": \"c1\", \"content\": \"18C\"}, {\"role\": \"tool\", \"tool_call_id\": \"c2\", \"content\": \"21C\"}], \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": \"Weather.\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}, \"n\": {\"type\": \"number\", \"default\": 1.0}}}}}]}");
    const expected = "<|im_start|>system\nBe brief.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": \"Weather.\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}, \"n\": {\"type\": \"number\", \"default\": 1.0}}}}}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n<|im_start|>user\nWeather in Paris?\nAnd Rome.<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"n\": 1.0}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n18C\n</tool_response>\n<tool_response>\n21C\n</tool_response><|im_end|>\n<|im_start|>assistant\n";
    expect(t.render(request)).toBe(expected);
    // Reconstruction: the assistant turn the template wrote parses back to the same calls.
    const turn = expected.slice(expected.indexOf("<|im_start|>assistant\n<tool_call>") + "<|im_start|>assistant\n".length);
    const parsed = t.parse(turn.slice(0, turn.indexOf("<|im_end|>")), request);
    expect(parsed.message.tool_calls?.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ["get_weather", { city: "Paris", n: 1 }],
      ["get_weather", { city: "Rome" }],
    ]);
  });
});

describe("request fields that are template variables (issue 9)", () => {
  const fixtureTemplate = (name: string) => readFileSync(join(FIXTURES, "templates", `${name}.jinja`), "utf8");

  it("gpt-oss prints the effort of reasoning_effort or the Responses reasoning.effort", async () => {
    const t = await tmpl(fixtureTemplate("openai-gpt-oss-120b"));
    expect(t.render({ ...user("x"), reasoning_effort: "high" })).toContain("Reasoning: high\n");
    expect(t.render({ input: "x", reasoning: { effort: "low" } })).toContain("Reasoning: low\n");
    expect(t.render(user("x"))).toContain("Reasoning: medium\n");
    // chat_template_kwargs win over the field, explicit variables over both.
    expect(t.render({ ...user("x"), reasoning_effort: "high", chat_template_kwargs: { reasoning_effort: "low" } })).toContain("Reasoning: low\n");
    expect(t.render({ ...user("x"), reasoning_effort: "high" }, { variables: { reasoning_effort: "low" } })).toContain("Reasoning: low\n");
  });
  it("top-level documents reach RAG templates", async () => {
    const t = await tmpl("{% for d in documents %}[{{ d.title }}: {{ d.text }}]{% endfor %}");
    expect(t.render({ ...user("x"), documents: [{ title: "A", text: "one" }, { title: "B", text: "two" }] })).toBe("[A: one][B: two]");
  });
  it("bad values are invalid_request naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ ...user("x"), documents: "d" }, "documents"],
      [{ ...user("x"), documents: [{ title: "ok" }, "d"] }, "documents[1]"],
      [{ ...user("x"), reasoning_effort: 3 }, "reasoning_effort"],
      [{ input: "x", reasoning: "high" }, "reasoning"],
      [{ input: "x", reasoning: { effort: 1 } }, "reasoning.effort"],
      [{ ...user("x"), chat_template_kwargs: [] }, "chat_template_kwargs"],
    ];
    for (const [body, field] of cases) expect((await renderError("x", body)).field).toBe(field);
  });
  it("a `__proto__` key in chat_template_kwargs stays a plain variable", async () => {
    const body = readJson('{"messages": [{"role": "user", "content": "x"}], "chat_template_kwargs": {"__proto__": {"polluted": 1}, "a": 2}}');
    expect((await tmpl("{{ a }}|{{ polluted is defined }}")).render(body)).toBe("2|False");
  });
});

describe("roles the template names (issue 9)", () => {
  it("Llama 3.1 takes ipython tool results; a template that does not name a role rejects it", async () => {
    const llama = await tmpl(readFileSync(join(FIXTURES, "templates", "meta-llama-Llama-3.1-8B-Instruct.jinja"), "utf8"), { bos_token: "<|begin_of_text|>" });
    const body = { messages: [{ role: "user", content: "time?" }, { role: "ipython", content: "22:40" }] };
    expect(llama.render(body, { now: new Date(0) })).toContain("<|start_header_id|>ipython<|end_header_id|>\n\n\"22:40\"<|eot_id|>");
    const err = await renderError("{% for m in messages %}{{ m.content }}{% endfor %}", body);
    expect([err.code, err.field]).toEqual(["invalid_request", "messages[1].role"]);
  });
});

describe("tool-call validation in render (issue 9)", () => {
  const history = (fn: unknown) => ({
    messages: [{ role: "user", content: "a" }, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: fn }] }],
  });
  it("each malformed call is invalid_request naming the field", async () => {
    expect((await renderError("x", history({ arguments: "{}" }))).field).toBe("messages[1].tool_calls[0].function.name");
    expect((await renderError("x", history({ name: 7, arguments: "{}" }))).field).toBe("messages[1].tool_calls[0].function.name");
    expect((await renderError("x", history({ name: "f", arguments: 5 }))).field).toBe("messages[1].tool_calls[0].function.arguments");
    const dup = { ...user("x"), tools: [{ type: "function", function: { name: "f" } }, { type: "function", function: { name: "f" } }] };
    expect((await renderError("x", dup)).field).toBe("tools[1].function.name");
    expect((await renderError("x", { messages: [{ role: "user", content: 5 }] })).field).toBe("messages[0].content");
  });
});
