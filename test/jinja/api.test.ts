/**
 * compileTemplate's contract: caching, typed errors (invalid_template with a position, template_error,
 * limit_exceeded), the injectable clock, context value types (PyFloat, bigint, undefined), and the
 * deep-frozen tojson cache. Expected strings come from Python (jinja2 3.1.6 / datetime.strftime).
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { PyFloat, compileTemplate, freezeDeep, isDeepFrozen } from "../../src/jinja/index.js";

function thrown(fn: () => unknown): ChatwireError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ChatwireError);
    return e as ChatwireError;
  }
  throw new Error("expected an error");
}

describe("compileTemplate", () => {
  it("compiles a source once and reuses it", () => {
    const src = "{{ 'cached' }}";
    expect(compileTemplate(src)).toBe(compileTemplate(src));
    expect(compileTemplate(src).source).toBe(src);
  });

  it("reports lexer errors as invalid_template with the offset", () => {
    const e = thrown(() => compileTemplate("ok {# never closed"));
    expect(e.code).toBe("invalid_template");
    expect(e.message).toContain("Missing end of comment tag");
    expect(e.position).toBe(5);
    const u = thrown(() => compileTemplate("{{ a ) }}"));
    expect(u.code).toBe("invalid_template");
    expect(u.position).toBe(5);
  });

  it("reports parser errors as invalid_template, with the offset of the offending token", () => {
    expect(thrown(() => compileTemplate("{% if x %}no end")).code).toBe("invalid_template");
    const unknown = thrown(() => compileTemplate("ab\n{% frobnicate %}"));
    expect(unknown.code).toBe("invalid_template");
    expect(unknown.position).toBe(6);
    const bad = thrown(() => compileTemplate("{{ 1 }}{{ x y }}"));
    expect(bad.position).toBe(12);
    expect(bad.message).toContain("(at offset 12)");
  });

  it("rejects an unknown filter at compile time, except inside an if (Jinja2's soft frames)", () => {
    expect(thrown(() => compileTemplate("{{ x|nope }}")).message).toBe("No filter named 'nope'.");
    const soft = compileTemplate("{% if x %}{{ x|nope }}{% endif %}ok");
    expect(soft.render({ x: false })).toBe("ok");
    const e = thrown(() => soft.render({ x: true }));
    expect(e.code).toBe("template_error");
    expect(e.message).toBe("No filter named 'nope' found.");
  });

  it("surfaces raise_exception with the template's own message", () => {
    const e = thrown(() => compileTemplate("{{ raise_exception('Roles must alternate ' ~ 'user/assistant') }}").render({}));
    expect(e.code).toBe("template_error");
    expect(e.message).toBe("Roles must alternate user/assistant");
  });

  it("reports runtime errors as template_error with Jinja2's message", () => {
    const e = thrown(() => compileTemplate("{{ messages[0].content.foo.bar }}").render({ messages: [{ content: "x" }] }));
    expect(e.code).toBe("template_error");
    expect(e.message).toBe("'str object' has no attribute 'foo'");
  });
});

describe("render options", () => {
  const fmt = "{{ strftime_now('%Y-%m-%d %H:%M:%S|%d %B %Y|%b %a %A|%I%p|%j|%y|%-d %-m|%e|%%') }}";
  it("feeds strftime_now from the injected clock (local time, like datetime.now())", () => {
    const t = compileTemplate(fmt);
    expect(t.render({}, { now: () => new Date(2026, 0, 2, 3, 4, 5) })).toBe(
      "2026-01-02 03:04:05|02 January 2026|Jan Fri Friday|03AM|002|26|2 1| 2|%",
    );
    expect(t.render({}, { now: () => new Date(2026, 11, 31, 15, 4, 5) })).toBe(
      "2026-12-31 15:04:05|31 December 2026|Dec Thu Thursday|03PM|365|26|31 12|31|%",
    );
  });

  it("applies per-render limits without affecting other renders", () => {
    const t = compileTemplate("{% for i in range(50) %}{{ i }}{% endfor %}");
    expect(thrown(() => t.render({}, { limits: { maxSteps: 10 } })).code).toBe("limit_exceeded");
    expect(t.render({})).toHaveLength(90);
  });
});

describe("context values", () => {
  it("prints PyFloat as a Python float and keeps it in tojson", () => {
    const t = compileTemplate("{{ x }} {{ x|tojson }} {{ {'d': x}|tojson }} {{ x + 1 }} {{ x is float }} {{ x|int }}");
    expect(t.render({ x: new PyFloat(1) })).toBe("1.0 1.0 {\"d\": 1.0} 2.0 True 1");
  });

  it("treats JS null as None and undefined as an undefined variable", () => {
    const t = compileTemplate("[{{ a }}][{{ a is none }}][{{ b }}][{{ b is defined }}][{{ c.d is defined }}]");
    expect(t.render({ a: null, b: undefined, c: { d: undefined } })).toBe("[None][True][][False][False]");
  });

  it("keeps big ints exact", () => {
    const t = compileTemplate("{{ n }} {{ n + 1 }} {{ n|tojson }} {{ 2 ** 64 }}");
    expect(t.render({ n: 12345678901234567890n })).toBe("12345678901234567890 12345678901234567891 12345678901234567890 18446744073709551616");
  });
});

describe("tojson cache", () => {
  it("shares results across renders only for deeply frozen data", () => {
    const t = compileTemplate("{{ tools|tojson }}");
    const tools = [{ name: "a", parameters: { type: "object" } }];
    expect(t.render({ tools })).toBe('[{"name": "a", "parameters": {"type": "object"}}]');
    // Not frozen: a change between renders shows up.
    tools[0]!.name = "b";
    expect(t.render({ tools })).toBe('[{"name": "b", "parameters": {"type": "object"}}]');
    freezeDeep(tools);
    expect(isDeepFrozen(tools)).toBe(true);
    expect(t.render({ tools })).toBe('[{"name": "b", "parameters": {"type": "object"}}]');
    expect(t.render({ tools })).toBe('[{"name": "b", "parameters": {"type": "object"}}]');
  });

  it("does not treat a shallowly frozen object as immutable", () => {
    const inner = { v: 1 };
    const outer = Object.freeze({ inner });
    expect(isDeepFrozen(outer)).toBe(false);
    const t = compileTemplate("{{ o|tojson }}");
    expect(t.render({ o: outer })).toBe('{"inner": {"v": 1}}');
    inner.v = 2;
    expect(t.render({ o: outer })).toBe('{"inner": {"v": 2}}');
  });
});
