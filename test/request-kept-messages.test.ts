/**
 * The normalised messages of a frozen messages array (readSharedJson's) are made once and reused by
 * later renders of the same array (src/request/kept-messages.ts): every render must give what a fresh
 * read of the same text gives, with the same warnings, for each template, and nothing may write to
 * the shared messages.
 */
import { describe, expect, it } from "vitest";
import { normalizeRequest, readJson, readSharedJson } from "../src/request/index.js";
import { loadTemplate } from "../src/template/index.js";

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
