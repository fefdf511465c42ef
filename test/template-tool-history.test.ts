/**
 * No tool call of the history is lost (issue 9). For every corpus template and the four published
 * configs, the conversation `30-tool-history-content-null` (two earlier calls sent as OpenAI sends them,
 * `content: null` and JSON-string arguments, each answered) is rendered the default way (`polyfill:
 * "auto"`), and
 * - every call reaches the prompt: its name and every argument value, and every tool result;
 * - the prompt is byte-identical to transformers rendering what the Python oracle gave it: the message
 *   shape the oracle's own probe picked by rendering with transformers (scripts/ref_normalize.py), and,
 *   where the template cannot print calls or tools, the oracle's polyfill rewrite (ref_polyfill.py).
 * Both sides decide independently, each on its own engine; render-conformance checks that their probe
 * answers agree, this file checks the outcome the issue asks for.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatwireError, loadTemplate, readJson } from "../src/index.js";
import { FIXTURES, loadConversations, loadExpected, loadRealConfigs, loadTemplates, renderOptions } from "../scripts/render-fixtures.mjs";

process.env.TZ = "UTC";

const CONVERSATION = "30-tool-history-content-null";
const conversation = loadConversations(readJson).find((c) => c.name === CONVERSATION)!;

/** What must be visible for each call and result of the conversation (read from the request itself). */
function mustShow(request: Record<string, unknown>): { call: string; needles: string[] }[] {
  const out: { call: string; needles: string[] }[] = [];
  for (const m of request.messages as Record<string, unknown>[]) {
    for (const call of (m.tool_calls as { function: { name: string; arguments: string } }[] | undefined) ?? []) {
      const args = JSON.parse(call.function.arguments) as Record<string, string>;
      out.push({ call: call.function.name, needles: [call.function.name, ...Object.values(args)] });
    }
    if (m.role === "tool") {
      // Templates may print a JSON result re-encoded (Llama 3.x, gpt-oss): look for its values.
      const text = String(m.content);
      const values = text.startsWith("{") ? Object.values(JSON.parse(text) as Record<string, unknown>).filter((v) => typeof v === "string") : [text];
      out.push({ call: `result of ${String(m.tool_call_id)}`, needles: values as string[] });
    }
  }
  return out;
}
const needles = mustShow(conversation.request);

/**
 * Templates that raise in transformers on this conversation, whatever the message shape: nothing to
 * render, and chatwire must raise the same. Reason written per template.
 */
const RAISES: Record<string, string> = {
  "CohereForAI-c4ai-command-r-plus-tool_use": "the template reads `description` of every parameter; the request's parameters have none",
  "fireworks-ai-llama-3-firefunction-v2": "the template reads a `functions` variable that transformers does not pass",
};

const sources = [
  ...loadTemplates().map((t) => ({ name: t.name, config: { chat_template: t.chat_template, bos_token: t.bos_token, eos_token: t.eos_token } })),
  ...loadRealConfigs(),
];

describe(`${CONVERSATION}: every call of the history renders`, () => {
  it("covers the corpus and the four real configs", () => {
    expect(sources.filter((s) => s.name.startsWith("real-")).map((s) => s.name)).toEqual(["real-deepseek_v3", "real-gemma3", "real-llama3_1", "real-qwen3"]);
    expect(sources.length).toBeGreaterThanOrEqual(60);
  });
  for (const source of sources) {
    const expected = loadExpected(source.name).auto?.[CONVERSATION];
    it(source.name, async () => {
      if (expected === undefined) throw new Error(`no auto fixture for ${source.name}: rerun scripts/gen-render-fixtures.py`);
      const t = await loadTemplate(source.config as Parameters<typeof loadTemplate>[0]);
      // renderOptions defaults to `never` (what the conformance suite compares); this is the default render.
      const render = () => t.render(conversation.request, { ...renderOptions(conversation.options), polyfill: "auto" });
      if (!("prompt" in expected)) {
        expect(RAISES[source.name], `transformers raised ${expected.kind}: ${expected.error}; give the reason in RAISES`).toBeDefined();
        expect(render).toThrow(ChatwireError);
        expect(render).toThrow(expected.error);
        return;
      }
      const prompt = render();
      for (const { call, needles: n } of needles) {
        for (const needle of n) expect(prompt.includes(needle), `${call}: ${needle} is missing from the prompt`).toBe(true);
      }
      expect(prompt).toBe(expected.prompt);
    });
  }
});

describe("templates that print calls only for `content: None` (DeepSeek V3 as published, R1 distills)", () => {
  const deepseek = join(FIXTURES, "real-configs", "deepseek_v3", "tokenizer_config.json");

  it("the probe picks None content and JSON-text arguments; the oracle (transformers) picked the same", async () => {
    const t = await loadTemplate(deepseek);
    expect(t.caps).toMatchObject({ callContentAsNone: true, readsArgumentsAsString: true, rendersToolCalls: true, rendersToolResults: true });
    expect(loadExpected("real-deepseek_v3").caps).toMatchObject({ callContentAsNone: true, readsArgumentsAsString: true });
    const distill = loadExpected("deepseek-ai-DeepSeek-R1-Distill-Llama-8B").caps;
    expect(distill).toMatchObject({ callContentAsNone: true, readsArgumentsAsString: true });
  });

  it("normalisation gives the call None content and the arguments as sent", async () => {
    const t = await loadTemplate(deepseek);
    const { messages } = t.normalize(conversation.request);
    expect(messages[1]).toMatchObject({ role: "assistant", content: null });
    expect((messages[1]!.tool_calls as { function: { arguments: unknown } }[])[0]!.function.arguments).toBe('{"city": "Reykjavik", "unit": "celsius"}');
    // An object given as arguments becomes JSON text (json.dumps spacing), since the template concatenates it.
    const asObject = structuredClone(conversation.request) as { messages: { tool_calls?: { function: { arguments: unknown } }[] }[] };
    asObject.messages[1]!.tool_calls![0]!.function.arguments = { city: "Zürich" };
    expect((t.normalize(asObject).messages[1]!.tool_calls as { function: { arguments: unknown } }[])[0]!.function.arguments).toBe('{"city": "Zürich"}');
    // An explicit "" next to calls is treated like null: the call must not vanish.
    const empty = structuredClone(conversation.request) as { messages: { content?: unknown }[] };
    empty.messages[1]!.content = "";
    expect(t.render(empty, { polyfill: "never" })).toContain("get_weather\n```json\n{\"city\": \"Reykjavik\"");
  });

  it("an assistant message without calls still gets \"\" for null content", async () => {
    const t = await loadTemplate(deepseek);
    const { messages } = t.normalize({ messages: [{ role: "user", content: "a" }, { role: "assistant", content: null }] });
    expect(messages[1]!.content).toBe("");
  });

  it("the published DeepSeek V3 config gets its tool list from the polyfill, and history calls still render natively", async () => {
    const t = await loadTemplate(deepseek);
    expect(t.caps.rendersToolDefinitions).toBe(false);
    const prompt = t.render(conversation.request);
    expect(prompt).toContain("You have access to the following tools:\n{\"name\": \"get_weather\"");
    expect(prompt).toContain("<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather");
    expect(prompt).toContain("<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_local_time");
    // The list only: the model answers in its own syntax, which is what the completion is parsed with.
    expect(prompt).not.toContain("```json\n{\"name\": \"tool_name\"");
    expect(t.formatFor(conversation.request)).toBe(t.format);
    expect(t.format).not.toBe("json-block");
    // Without the polyfill the template shows no tools at all (what transformers renders).
    expect(t.render(conversation.request, { polyfill: "never" })).not.toContain("Current weather for a city.");
  });
});

describe("caps tell definitions, calls and results apart", () => {
  it("a template that prints tools but drops calls gets only the calls (and results) rewritten", async () => {
    // LFM2 prints the tool list but never reads tool_calls.
    const lfm = sources.find((s) => s.name === "LFM2-8B-A1B")!;
    const t = await loadTemplate(lfm.config as Parameters<typeof loadTemplate>[0]);
    expect(t.caps).toMatchObject({ rendersToolDefinitions: true, rendersToolCalls: false });
    const prompt = t.render(conversation.request);
    expect(prompt).toContain('```json\n{"name": "get_weather", "arguments": {"city": "Reykjavik", "unit": "celsius"}}\n```');
    expect(prompt).not.toContain("You have access to the following tools:");
    expect(t.formatFor(conversation.request)).toBe(t.format);
  });
  it("a template with no tool support gets everything, and completions parse as json-block", async () => {
    const gemma = loadRealConfigs().find((s) => s.name === "real-gemma3")!;
    const t = await loadTemplate(gemma.config as Parameters<typeof loadTemplate>[0]);
    expect(t.caps).toMatchObject({ rendersToolDefinitions: false, rendersToolCalls: false });
    expect(t.render(conversation.request)).toContain("To call a tool, answer with a fenced JSON block");
    expect(t.formatFor(conversation.request)).toBe("json-block");
  });
});

describe("the fixture's expectation is not our own output", () => {
  it("was produced by scripts/gen-render-fixtures.py (transformers), recorded with its input", () => {
    const raw = JSON.parse(readFileSync(join(FIXTURES, "render", "real-deepseek_v3.json"), "utf8")) as { auto: Record<string, { input?: number }> };
    expect(raw.auto[CONVERSATION]?.input).toBeTypeOf("number");
  });
});
