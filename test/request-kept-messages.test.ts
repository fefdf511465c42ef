/**
 * The normalised messages of a frozen messages array (readSharedJson's) are made once and reused by
 * later renders of the same array (src/request/kept-messages.ts): every render must give what a fresh
 * read of the same text gives, with the same warnings, for each template, and nothing may write to
 * the shared messages.
 */
import { describe, expect, it } from "vitest";
import { normalizeConversation, normalizeRequest, readJson, readSharedJson } from "../src/request/index.js";
import { loadTemplate, type ChatTemplate, type RenderOptions } from "../src/template/index.js";

const BODY = JSON.stringify({
  messages: [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Find the docs for kmsg_alpha." },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "kmsg1", type: "function", function: { name: "kmsg_search", arguments: '{"q": "kmsg_alpha", "n": 1.0}' } },
        { id: "kmsg2", type: "function", function: { name: "kmsg_open", arguments: "not json {" } },
      ],
    },
    { role: "tool", tool_call_id: "kmsg1", content: "kmsg result one" },
    { role: "tool", tool_call_id: "kmsg2", content: "kmsg result two" },
    { role: "user", content: "And then?" },
  ],
});

// Two templates, so one frozen array is normalised for two TemplateInfo answers (parsed arguments and
// their text; one call per message).
const PARSED = "{% for m in messages %}[{{ m.role }}|{{ m.content }}{% for c in m.tool_calls or [] %}|{{ c.function.name }}={{ c.function.arguments | tojson }}{% endfor %}{% if m.name is defined %}|{{ m.name }}{% endif %}]{% endfor %}";
const ONE_CALL = "{% for m in messages %}{% if m.tool_calls %}{% if m.tool_calls | length > 1 %}{{ raise_exception('one call per message') }}{% endif %}<{{ m.tool_calls[0].function.name }}:{{ m.tool_calls[0].function.arguments }}>{% else %}[{{ m.role }}|{{ m.content }}]{% endif %}{% endfor %}";

describe("normalised messages kept for a frozen messages array", () => {
  it("renders a repeated body exactly as a fresh read, with its warnings every time, for each template", async () => {
    const templates = [await loadTemplate({ chat_template: PARSED }), await loadTemplate({ chat_template: ONE_CALL })];
    const expected = templates.map((t) => {
      const warnings: string[] = [];
      return { prompt: t.render(readJson(BODY) as never, { onWarning: (w) => warnings.push(w) }), warnings };
    });
    expect(expected[0]!.warnings.length).toBe(1);
    for (let i = 0; i < 5; i++) {
      templates.forEach((t, k) => {
        const warnings: string[] = [];
        expect(t.render(readSharedJson(BODY) as never, { onWarning: (w) => warnings.push(w) })).toBe(expected[k]!.prompt);
        expect(warnings).toEqual(expected[k]!.warnings);
      });
    }
  });

  it("gives continue_final_message messages of its own (it marks the last one in place)", async () => {
    const t = await loadTemplate({ chat_template: PARSED });
    const expected = t.render(readJson(BODY) as never, { continueFinalMessage: true });
    for (let i = 0; i < 4; i++) {
      expect(t.render(readSharedJson(BODY) as never)).toBe(t.render(readJson(BODY) as never));
      expect(t.render(readSharedJson(BODY) as never, { continueFinalMessage: true })).toBe(expected);
    }
  });

  it("leaves normalizeRequest's own callers with messages they may change", async () => {
    const t = await loadTemplate({ chat_template: PARSED });
    for (let i = 0; i < 4; i++) t.render(readSharedJson(BODY) as never);
    const conversation = normalizeRequest(readSharedJson(BODY), { readsContentParts: false, knowsDeveloperRole: false });
    expect(Object.isFrozen(conversation.messages)).toBe(false);
    expect(Object.isFrozen(conversation.messages[0])).toBe(false);
  });
});

/** A body read again and again (its messages array the same frozen one from the second read on). */
const WIDE = JSON.stringify({
  messages: [
    { role: "developer", content: "Answer in French." },
    { role: "user", content: [{ type: "input_text", text: "Part one" }, { type: "text", text: "part two" }], "7": "an integer-like key", extra: { "2": 1.5, a: [1, 2] } },
    {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "w1", type: "function", function: { name: "wide_search", arguments: { q: "x", n: 2.5 } } },
        { id: "w2", type: "function", function: { name: "wide_open", arguments: '{"u": "http://x", "k": [1, {"z": null}]}' } },
      ],
    },
    { role: "tool", tool_call_id: "w1", content: "found" },
    { role: "tool", tool_call_id: "w2", content: [{ type: "text", text: "opened" }] },
    { role: "assistant", content: "Voilà" },
  ],
  tools: [{ type: "function", function: { name: "wide_search", description: "Search", parameters: { type: "object", properties: { q: { type: "string" } } } } }],
});

// Templates that differ in every answer normalisation depends on, and ones that try to write to what they read.
const TEMPLATES: Record<string, string> = {
  // Knows `developer`, reads content parts, prints every message whole (key order, the integer-like key).
  parts:
    "{% for m in messages %}<{{ m.role }}>{% if m.content is string %}{{ m.content }}{% else %}{% for p in m.content %}[{{ p.type }}:{{ p.text }}]{% endfor %}{% endif %}{{ m | tojson }}{% for k, v in m.items() %}{{ k }},{% endfor %}{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}",
  // Concatenates arguments (so gets them as text), no `developer`, string content only.
  concat: "{% for m in messages %}({{ m.role }}:{{ m.content }}{% for c in m.tool_calls or [] %}|{{ c.function.name + ':' + c.function.arguments }}{% endfor %}){% endfor %}",
  update: "{% for m in messages %}{% if m.role == 'user' %}{% set _ = m.update({'content': 'X'}) %}{% endif %}{{ m.content }}{% endfor %}",
  append: "{% set _ = messages.append({'role': 'user', 'content': 'x'}) %}{{ messages | length }}",
  pop: "{{ messages.pop() }}{{ messages | length }}",
  listAppend: "{% for m in messages %}{% if m.tool_calls %}{% set _ = m.tool_calls.append(1) %}{% endif %}{% endfor %}",
  namespace: "{% set ns = namespace(last=none, n=0) %}{% for m in messages %}{% set ns.last = m %}{% set ns.n = ns.n + 1 %}{% endfor %}{{ ns.n }}{{ ns.last | tojson }}{{ messages[1:] | tojson(indent=2) }}{{ messages | reverse | map(attribute='role') | join(',') }}",
};

function outcome(t: ChatTemplate, body: unknown, options: RenderOptions): { prompt?: string; error?: string; warnings: string[] } {
  const warnings: string[] = [];
  try {
    return { prompt: t.render(body as never, { ...options, onWarning: (w) => warnings.push(w) }), warnings };
  } catch (err) {
    return { error: `${(err as { code?: string }).code}: ${(err as Error).message}`, warnings };
  }
}

describe("kept messages across templates, options and templates that write", () => {
  it("renders one frozen array through templates of other answers, in turn, as a fresh read each time, warnings and errors included", async () => {
    const templates = await Promise.all(Object.values(TEMPLATES).map((chat_template) => loadTemplate({ chat_template })));
    const optionSets: RenderOptions[] = [{}, { addGenerationPrompt: false }, { continueFinalMessage: true }, { continueFinalMessage: true, addGenerationPrompt: true }, { polyfill: "always" }, { polyfill: "never" }];
    const expected = templates.map((t) => optionSets.map((o) => outcome(t, readJson(WIDE), o)));
    // Both kinds of answer are met: the writers fail, the others render.
    expect(expected.flat().some((e) => e.error?.includes("unsafe") === true)).toBe(true);
    expect(expected.flat().some((e) => e.prompt !== undefined && e.warnings.length === 0)).toBe(true);
    for (let round = 0; round < 4; round++) {
      templates.forEach((t, k) => optionSets.forEach((o, j) => expect(outcome(t, readSharedJson(WIDE), o), `${Object.keys(TEMPLATES)[k]} ${JSON.stringify(o)}`).toEqual(expected[k]![j])));
    }
  });

  it("keeps the shared messages as they were read, whatever a template tried", async () => {
    const writers = await Promise.all(["update", "append", "pop", "listAppend"].map((name) => loadTemplate({ chat_template: TEMPLATES[name]! })));
    const printer = await loadTemplate({ chat_template: TEMPLATES.namespace! });
    const before = printer.render(readJson(WIDE) as never);
    for (let round = 0; round < 3; round++) {
      // No polyfill: it would take the calls out of the messages of templates that do not print them.
      for (const t of writers) expect(() => t.render(readSharedJson(WIDE) as never, { polyfill: "never" })).toThrow(/unsafe/);
      expect(printer.render(readSharedJson(WIDE) as never)).toBe(before);
    }
  });

  it("reports the warnings of a kept conversation on every render, in order with the tools' own", async () => {
    const body = JSON.stringify({
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: null, tool_calls: [{ id: "k1", type: "function", function: { name: "kw", arguments: "{bad" } }] },
        { role: "tool", tool_call_id: "k1", content: "r" },
      ],
      tools: [{ type: "function", function: { name: "kw", parameters: { type: "object" } } }],
    });
    const t = await loadTemplate({ chat_template: TEMPLATES.parts! });
    const fresh = outcome(t, readJson(body), {});
    expect(fresh.warnings.length).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) expect(outcome(t, readSharedJson(body), {})).toEqual(fresh);
  });
});

describe("unchanged messages of a deeply frozen array", () => {
  const info = { readsContentParts: false, knowsDeveloperRole: false };
  const body = {
    messages: [
      { role: "system", content: "kmsg share: be brief." },
      { role: "developer", content: "kmsg share: renamed for this template" },
      { role: "user", content: "kmsg share: hi" },
      { role: "assistant", content: null, tool_calls: [{ id: "kshare1", type: "function", function: { name: "f", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "kshare1", content: "no name: one is added" },
      { role: "tool", tool_call_id: "kshare1", name: "f", content: "named" },
      { role: "assistant", content: "kmsg share: done" },
      { role: "assistant", content: "" },
    ],
  };

  it("are the array's own in a render's normalisation, and copies where a rule changes them or for normalizeRequest", () => {
    const read = readSharedJson(JSON.stringify(body)) as { messages: Record<string, unknown>[] };
    const shared = normalizeConversation(read, info, true).messages;
    const same = shared.map((m, i) => m === read.messages[i]);
    expect(same).toEqual([true, false, true, false, false, true, true, false]);
    expect(shared).toEqual(normalizeRequest(body, info).messages);
    expect(normalizeRequest(read, info).messages.some((m, i) => m === read.messages[i])).toBe(false);
    // A caller's plain messages are always copied.
    expect(normalizeConversation(body, info, true).messages.some((m, i) => m === body.messages[i])).toBe(false);
  });
});
