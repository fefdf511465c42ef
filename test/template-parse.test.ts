/**
 * ChatTemplate.parse / streamParser delegate to the parse engine with the template's format, and tell
 * it how the prompt ends (a generation prompt that already opened `<think>` means the output starts in
 * reasoning).
 */
import { describe, expect, it } from "vitest";
import { loadTemplate } from "../src/template/index.js";
import type { Delta } from "../src/types.js";

/** A ChatML template whose generation prompt opens a think block (like DeepSeek R1's and Qwen3-Thinking's). */
const THINKING = "{# <tool_call> #}{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n<think>\n{% endif %}";
const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { a: { type: "integer" } }, required: ["a"] } } }];
const ids = () => "call_test";

describe("parse through the template", () => {
  it("an output that starts inside the prompt's <think> is reasoning, then content", async () => {
    const t = await loadTemplate({ chat_template: THINKING });
    expect(t.format).toBe("hermes");
    // (How whitespace around the markers is trimmed is the parse engine's business, not checked here.)
    const { message, finish_reason, errors } = t.parse("Plan it.\n</think>\n\nHello");
    expect([message.reasoning_content?.trim(), message.content?.trim(), finish_reason, errors]).toEqual(["Plan it.", "Hello", "stop", []]);
  });
  it("without the think-opening prompt, the same text is not reasoning", async () => {
    const t = await loadTemplate({ chat_template: THINKING.replace("<think>\n", "") });
    expect(t.parse("Plan it.\n</think>\n\nHello").message.reasoning_content).toBeUndefined();
  });
  it("after a render of the same request object, parse and streamParser read its prompt's end without a second render (issue 19)", async () => {
    // The template reads the clock once per render; `now` counts the renders.
    const t = await loadTemplate({ chat_template: THINKING.replace("{% if add_generation_prompt %}", "{{ strftime_now('%Y') }}{% if add_generation_prompt %}") });
    let renders = 0;
    const now = () => (renders++, new Date(Date.UTC(2026, 0, 1)));
    const request = { messages: [{ role: "user", content: "hi" }] };
    t.render(request, { now });
    expect(renders).toBe(1);
    expect(t.parse("Plan it.\n</think>\n\nHello", request, { render: { now } }).message.reasoning_content?.trim()).toBe("Plan it.");
    t.streamParser(request, { render: { now } }).end();
    expect(renders).toBe(1);
    // Another request object, or other render options: rendered (once each).
    const other = { messages: [{ role: "user", content: "hi" }] };
    t.parse("x", other, { render: { now } });
    t.parse("x", request, { render: { now, variables: { enable_thinking: false } } });
    expect(renders).toBe(3);
    // A parse's own render is kept too: parsing the same object again renders nothing more.
    t.parse("x", other, { render: { now } });
    expect(renders).toBe(3);
  });
  it("an explicit promptSuffix wins over rendering", async () => {
    const t = await loadTemplate({ chat_template: THINKING });
    const { message } = t.parse("Plan it.", undefined, { promptSuffix: "<|im_start|>assistant\n" });
    expect([message.content, message.reasoning_content]).toEqual(["Plan it.", undefined]);
  });
  it("tool calls are validated against the request's tools", async () => {
    const t = await loadTemplate("qwen3");
    const ok = t.parse('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>', { tools }, { idGenerator: ids });
    expect(ok.message.tool_calls).toEqual([{ id: "call_test", type: "function", function: { name: "f", arguments: '{"a": 1}' } }]);
    expect(ok.finish_reason).toBe("tool_calls");
    const bad = t.parse('<tool_call>\n{"name": "f", "arguments": {"a": "x"}}\n</tool_call>', { tools });
    expect(bad.message.tool_calls).toBeUndefined();
    expect(bad.errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
  });
  it("the stream parser gives the same message as the one-shot parse", async () => {
    const t = await loadTemplate({ chat_template: THINKING });
    const request = { messages: [{ role: "user", content: "x" }], tools };
    const text = 'Plan.\n</think>\n<tool_call>\n{"name": "f", "arguments": {"a": 7}}\n</tool_call>';
    // THINKING prints neither tools nor calls, so `auto` would polyfill (json-block); this test is about
    // the template's own hermes syntax.
    const render = { polyfill: "never" as const };
    const stream = t.streamParser(request, { idGenerator: ids, render });
    const deltas: Delta[] = [];
    for (let i = 0; i < text.length; i += 3) deltas.push(...stream.push(text.slice(i, i + 3)));
    deltas.push(...stream.end());
    const oneShot = t.parse(text, request, { idGenerator: ids, render });
    expect(deltas.map((d) => d.reasoning_content ?? "").join("")).toBe(oneShot.message.reasoning_content);
    const args = deltas.flatMap((d) => d.tool_calls ?? []).map((c) => c.function.arguments ?? "").join("");
    expect(args).toBe(oneShot.message.tool_calls?.[0]?.function.arguments);
    expect(deltas[deltas.length - 1]?.finish_reason).toBe("tool_calls");
  });
});
