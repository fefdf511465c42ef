/**
 * A history with tool calls renders in every request shape, or raises where transformers raises in
 * every message shape (issue 23). For every corpus template and published config, and every fixture
 * conversation with tool calls that the normaliser accepts, fixtures/render/<template>.json `shapes`
 * holds what transformers did with that request in each of the four tool-call message shapes (content
 * "" or None next to calls, arguments as values or JSON text: scripts/ref_render.py `shape_results`,
 * rendered without any answer of ours). Then chatwire, rendering as transformers would (`polyfill:
 * "never"`),
 * - renders a prompt byte-identical to one of the shapes' prompts whenever transformers rendered one;
 * - raises the reference's error only where transformers raised in all four;
 * - and, rendering the default way (`polyfill: "auto"`), raises only where transformers raised in all four.
 * The figures are printed at the end. Below: functionary v2.2, which prints `message['name']` on tool
 * turns and concatenates string arguments, and the fallback that tries the other shapes on the request.
 */
import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ChatwireError, loadTemplate, readJson } from "../src/index.js";
import { loadConversations, loadExpected, loadRealConfigs, loadTemplates, renderOptions, type ExpectedResult } from "../scripts/render-fixtures.mjs";

process.env.TZ = "UTC";

type ShapeResult = { sha256: string } | { error: string; kind: string };

const sources = [
  ...loadTemplates().map((t) => ({ name: t.name, config: { chat_template: t.chat_template, bos_token: t.bos_token, eos_token: t.eos_token } })),
  ...loadRealConfigs(),
];
const conversations = new Map(loadConversations(readJson).map((c) => [c.name, c]));
const digest = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 16);

const figures = { templates: 0, toolTemplates: 0, pairs: 0, renderable: 0, rendered: 0, allRaise: 0, raisedSame: 0, autoRaised: 0 };

/** Python raised in every shape: our error must be the reference's (the probed shape's) error. */
function sameError(expected: ExpectedResult, thrown: unknown): boolean {
  if (!("error" in expected) || !(thrown instanceof ChatwireError)) return false;
  if (expected.kind === "RecursionError") return thrown.code === "limit_exceeded";
  return thrown.message.includes(expected.error);
}

for (const source of sources) {
  const reference = loadExpected(source.name) as ReturnType<typeof loadExpected> & { shapes?: Record<string, ShapeResult[]> };
  const shapes = reference.shapes ?? {};
  describe(source.name, () => {
    it("has a shape reference for every tool-history conversation", () => {
      expect(reference.shapes, "rerun scripts/gen-render-fixtures.py").toBeDefined();
      expect(Object.keys(shapes)).toContain("30-tool-history-content-null");
    });
    for (const [convName, results] of Object.entries(shapes)) {
      it(`${convName}: renders in some shape, or raises as transformers does in all four`, async () => {
        const conv = conversations.get(convName)!;
        const t = await loadTemplate(source.config as Parameters<typeof loadTemplate>[0]);
        if (convName === "30-tool-history-content-null") {
          figures.templates++;
          if (t.caps.supportsTools || t.caps.rendersToolCalls) figures.toolTemplates++;
        }
        figures.pairs++;
        const rendered = results.filter((r): r is { sha256: string } => "sha256" in r).map((r) => r.sha256);
        let prompt: string | undefined;
        let thrown: unknown;
        try {
          prompt = t.render(conv.request, renderOptions(conv.options));
        } catch (e) {
          thrown = e;
        }
        // The default render (`polyfill: "auto"`) may rewrite what the template cannot show, but it too
        // may raise only where transformers raises in every shape.
        let autoThrew = false;
        try {
          t.render(conv.request, { ...renderOptions(conv.options), polyfill: "auto" });
        } catch {
          autoThrew = true;
        }
        if (autoThrew) figures.autoRaised++;
        expect(autoThrew && rendered.length > 0, "polyfill auto raised where transformers renders a shape").toBe(false);
        if (rendered.length > 0) {
          figures.renderable++;
          if (thrown !== undefined) throw thrown;
          expect(rendered, "chatwire's prompt is none of the shapes transformers rendered").toContain(digest(prompt!));
          figures.rendered++;
        } else {
          figures.allRaise++;
          const expected = reference.pairs[convName]!;
          expect(thrown, `transformers raised in every shape (${JSON.stringify(results[0])})`).toBeInstanceOf(ChatwireError);
          expect(sameError(expected, thrown), `expected ${JSON.stringify(expected)}, got ${String(thrown)}`).toBe(true);
          figures.raisedSame++;
        }
      });
    }
  });
}

afterAll(() => {
  console.log(
    `tool-call shapes: ${figures.templates} templates (${figures.toolTemplates} with tool support), ${figures.pairs} tool-history pairs; ` +
      `${figures.rendered}/${figures.renderable} that transformers renders in some shape render (byte-identical to one), ` +
      `${figures.raisedSame}/${figures.allRaise} that raise in every shape raise the same error; ` +
      `with polyfill "auto", ${figures.autoRaised} raise, all among those`,
  );
});

const FUNCTIONARY = "meetkai-functionary-medium-v2.2";

describe("functionary v2.2: `message['name']` on tool turns, arguments concatenated as text", () => {
  const config = () => sources.find((s) => s.name === FUNCTIONARY)!.config as Parameters<typeof loadTemplate>[0];

  it("the probe (tool results carry the called function's name) finds the JSON-text shape; transformers agrees", async () => {
    const t = await loadTemplate(config());
    expect(t.caps).toMatchObject({ rendersToolCalls: true, rendersToolResults: true, readsArgumentsAsString: true, callContentAsNone: false });
    expect(loadExpected(FUNCTIONARY).caps).toMatchObject({ rendersToolCalls: true, readsArgumentsAsString: true, callContentAsNone: false });
  });

  it("renders each call under its name and each result under the name of its call", async () => {
    const t = await loadTemplate(config());
    const conv = conversations.get("30-tool-history-content-null")!;
    const prompt = t.render(conv.request, renderOptions(conv.options));
    expect(prompt).toContain('<|from|>assistant\n<|recipient|>get_weather\n<|content|>{"city": "Reykjavik", "unit": "celsius"}<|stop|>');
    expect(prompt).toContain("<|from|>get_weather\n<|recipient|>all\n<|content|>");
    expect(prompt).toContain("<|from|>get_local_time\n<|recipient|>all\n<|content|>14:05");
    expect(prompt).toBe((loadExpected(FUNCTIONARY).pairs[conv.name] as { prompt: string }).prompt);
  });

  it("arguments sent as an object reach it as json.dumps text", async () => {
    const t = await loadTemplate(config());
    const prompt = t.render({
      messages: [
        { role: "user", content: "Weather in Zürich?" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: { city: "Zürich", days: [1, 2] } } }] },
        { role: "tool", tool_call_id: "call_1", content: "4 °C" },
      ],
    });
    expect(prompt).toContain('<|recipient|>get_weather\n<|content|>{"city": "Zürich", "days": [1, 2]}<|stop|>\n<|from|>get_weather\n');
  });
});

describe("the render's fallback: a template the probe cannot decide", () => {
  // Concatenates string arguments and demands a leading system message, so every probe render raises
  // (the probe sends none) and the default shape, arguments as values, is picked.
  const SOURCE =
    "{% if messages[0].role != 'system' %}{{ raise_exception('A system message must come first') }}{% endif %}" +
    "{% for m in messages %}{% if m.role == 'assistant' and m.tool_calls %}{% for c in m.tool_calls %}" +
    "{{ '[call ' + c.function.name + ' ' + c.function.arguments + ']' }}{% endfor %}" +
    "{% elif m.role == 'tool' %}{{ '[result ' + m.name + ': ' + m.content + ']' }}{% else %}{{ '[' + m.role + '] ' + m.content }}{% endif %}{% endfor %}";
  const request = {
    messages: [
      { role: "system", content: "sys" },
      { role: "user", content: "hi" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: '{"a": 1}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "ok" },
    ],
  };

  it("renders the request in the first shape that works (arguments as JSON text)", async () => {
    const t = await loadTemplate({ chat_template: SOURCE });
    expect(t.caps).toMatchObject({ rendersToolCalls: false, readsArgumentsAsString: false });
    // What transformers renders given the arguments as text (scripts/ref_render.py `expected` picks the same).
    expect(t.render(request, { polyfill: "never" })).toBe('[system] sys[user] hi[call f {"a": 1}][result f: ok]');
  });

  it("reports the probed shape's error when every shape raises, and does not retry requests without calls", async () => {
    const t = await loadTemplate({ chat_template: SOURCE });
    expect(() => t.render({ messages: [{ role: "user", content: "hi" }] })).toThrow("A system message must come first");
    const noSystem = { messages: request.messages.slice(1) };
    expect(() => t.render(noSystem, { polyfill: "never" })).toThrow("A system message must come first");
  });
});
