/**
 * Untrusted templates: huge loops, deep recursion, giant strings and prototype probing are stopped with a
 * ChatwireError (limit_exceeded / template_error), and the process keeps working afterwards.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { compileTemplate } from "../../src/jinja/index.js";

function failure(template: string, context: Record<string, unknown> = {}, limits = {}): ChatwireError {
  try {
    compileTemplate(template).render(context, { limits });
  } catch (e) {
    expect(e).toBeInstanceOf(ChatwireError);
    return e as ChatwireError;
  }
  throw new Error("expected the render to fail");
}

/**
 * Replaces the clock the render budget reads (Date.now) with one that advances `msPerReading` at each
 * reading, so that when the time budget trips depends on the work done, never on the machine's speed.
 */
function virtualClock(msPerReading: number): void {
  let t = Date.now();
  vi.spyOn(Date, "now").mockImplementation(() => (t += msPerReading));
}
afterEach(() => {
  vi.restoreAllMocks();
});

const FOREVER = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";

describe("render limits", () => {
  it("stops a loop that would run for ever with the default time budget", () => {
    // The step and size limits are lifted, so the time budget is the only one that can trip.
    const e = failure(FOREVER, {}, { maxSteps: Infinity, maxTotalBytes: Infinity });
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toMatch(/render time limit \(1000 ms\)/);
  }, 30_000);

  it("stops it at the default limits (whichever limit the machine's speed makes trip first)", () => {
    expect(failure(FOREVER).code).toBe("limit_exceeded");
  }, 30_000);

  it("trips the time budget after 1000 ms of clock, however fast the machine", () => {
    // 1 ms per reading, one reading per 2048 steps: about 2 M steps, far below the step limit.
    virtualClock(1);
    const e = failure(FOREVER);
    expect(e.message).toMatch(/render time limit \(1000 ms\)/);
  });

  it("stops it with the step budget when time is not limited", () => {
    const e = failure(FOREVER, {}, { timeMs: Infinity, maxSteps: 2_000_000, maxTotalBytes: Infinity });
    expect(e.message).toMatch(/step limit \(2000000 steps\)/);
  });

  it("honours a per-render time budget", () => {
    const e = failure(FOREVER, {}, { timeMs: 50, maxSteps: Infinity, maxTotalBytes: Infinity });
    expect(e.message).toMatch(/render time limit \(50 ms\)/);
  });

  it("charges string work by its size, not per call", () => {
    // 100 upper() calls on 1 MB are 100 MB of work: over a 1M-step budget though only ~300 statements run.
    const t = "{% set s = 'a' * 1000000 %}{% for i in range(100) %}{% set t = s.upper() %}{% endfor %}";
    expect(failure(t, {}, { maxSteps: 1_000_000, timeMs: Infinity }).message).toMatch(/step limit/);
    // Legal work renders; the time budget is lifted so a slow or loaded machine cannot trip it.
    expect(compileTemplate(t).render({}, { limits: { maxSteps: 3_000_000, timeMs: Infinity } })).toBe("");
  });

  it("bounds the total size a render builds, not only each string", () => {
    const t = "{% set s = 'a' * 1000000 %}{% set ns = namespace(l=[]) %}{% for i in range(50) %}{% set ns.l = ns.l + [s.upper()] %}{% endfor %}{{ ns.l|length }}";
    expect(failure(t, {}, { maxTotalBytes: 20_000_000, timeMs: Infinity }).message).toMatch(/total size limit \(20000000 bytes\)/);
    expect(compileTemplate(t).render({}, { limits: { timeMs: Infinity } })).toBe("50");
  });

  it("ignores a limit given as undefined (keeps the default instead of no limit)", () => {
    const e = failure(FOREVER, {}, { maxSteps: undefined, timeMs: 100 });
    expect(e.code).toBe("limit_exceeded");
  });

  it("refuses template sources over the size limit at compile time", () => {
    let e: unknown;
    try {
      compileTemplate("x".repeat(300 * 1024));
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(ChatwireError);
    expect((e as ChatwireError).code).toBe("limit_exceeded");
  });

  it("honours a per-render step limit", () => {
    const t = "{% for i in range(1000) %}{{ i }}{% endfor %}";
    expect(failure(t, {}, { maxSteps: 500 }).code).toBe("limit_exceeded");
    expect(compileTemplate(t).render({}, { limits: { maxSteps: 5000 } })).toHaveLength(2890);
  });

  it("refuses range() beyond the sandbox's 100000 items", () => {
    const e = failure("{{ range(10 ** 12)|length }}");
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toContain("range()");
  });

  it("stops unbounded macro recursion at the depth limit", () => {
    const e = failure("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}");
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toContain("maximum recursion depth exceeded");
    expect(failure("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", {}, { maxDepth: 10 }).message).toContain("10");
  });

  it("allows recursion within the limit", () => {
    const t = "{% macro f(n) %}{% if n > 0 %}{{ n }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(150) }}";
    expect(compileTemplate(t).render({})).toMatch(/^150149/);
  });

  it("refuses to build giant strings and lists", () => {
    expect(failure("{{ 'a' * 10 ** 9 }}").code).toBe("limit_exceeded");
    expect(failure("{{ [1] * 10 ** 9 }}").code).toBe("limit_exceeded");
    expect(failure("{{ 2 ** (10 ** 12) }}").code).toBe("limit_exceeded");
    const doubling = "{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s|length }}";
    expect(failure(doubling).code).toBe("limit_exceeded");
  });

  it("caps the output size", () => {
    const e = failure("{% for i in range(100) %}{{ s }}{% endfor %}", { s: "x".repeat(1000) }, { maxOutputBytes: 50_000 });
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toContain("50000");
  });

  it("handles a 100 MB string in the context without copying it needlessly", () => {
    const big = "y".repeat(100 * 1024 * 1024);
    const t = compileTemplate("{{ big|length }} {{ big[:3] }} {{ big[-2:] }} {{ 'z' in big }} {{ big.startswith('yy') }}");
    expect(t.render({ big }, { limits: { timeMs: Infinity } })).toBe("104857600 yyy yy False True");
    // Printing it is more than the default 64 MB output allows.
    expect(failure("{{ big }}", { big }).code).toBe("limit_exceeded");
    // Iterating its characters costs one step each, so it stops before building a 100M-item array.
    expect(failure("{% for c in big %}{% endfor %}", { big }).code).toBe("limit_exceeded");
  });

  it("stops JSON of absurdly deep data", () => {
    // Deeper than JSON.stringify's stack allows, so the exact serializer and its depth limit take over.
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(failure("{{ x|tojson }}", { x: deep }).code).toBe("limit_exceeded");
  });

  it("keeps working after a limit was hit", () => {
    failure("{{ 'a' * 10 ** 9 }}");
    expect(compileTemplate("{{ 1 + 1 }}").render({})).toBe("2");
  });
});

describe("sandbox", () => {
  it("sees no JS prototypes or internals", () => {
    const t = compileTemplate(
      "[{{ x.constructor }}][{{ x.__proto__ }}][{{ x['constructor'] }}][{{ x.hasOwnProperty }}][{{ ''.constructor }}]" +
        "[{{ [].constructor }}][{{ x.toString }}][{{ x.valueOf }}][{{ range.constructor }}][{{ x.__class__ }}][{{ (1).constructor }}]",
    );
    expect(t.render({ x: { a: 1 } })).toBe("[][][][][][][][][][][]");
  });

  it("cannot call through prototype members", () => {
    expect(failure("{{ x.constructor('return 1')() }}", { x: {} }).code).toBe("template_error");
    expect(failure("{{ ''.constructor.constructor('return process')() }}").code).toBe("template_error");
  });

  it("does not call JS functions found in the context", () => {
    const e = failure("{{ f() }}", { f: () => "pwned" });
    expect(e.code).toBe("template_error");
  });

  it("reads own data properties only, never getters", () => {
    let called = false;
    const x = Object.create({ inherited: "no" }) as Record<string, unknown>;
    Object.defineProperty(x, "g", { enumerable: true, get: () => ((called = true), "got") });
    expect(compileTemplate("[{{ x.inherited }}]").render({ x })).toBe("[]");
    const y: Record<string, unknown> = { plain: 1 };
    Object.defineProperty(y, "g", { enumerable: true, get: () => ((called = true), "got") });
    expect(compileTemplate("[{{ y.g }}][{{ y['g'] }}][{{ y.plain }}]").render({ y })).toBe("[][][1]");
    expect(called).toBe(false);
  });

  it("refuses mutating methods with Jinja2's SecurityError message", () => {
    expect(failure("{{ x.append(1) }}", { x: [] }).message).toBe("access to attribute 'append' of 'list' object is unsafe.");
    expect(failure("{{ x.update({}) }}", { x: {} }).message).toBe("access to attribute 'update' of 'dict' object is unsafe.");
  });

  it("leaves context objects untouched", () => {
    const ctx = { messages: [{ role: "user", content: "hi" }] };
    const before = JSON.stringify(ctx);
    compileTemplate("{% set m = messages[0] %}{% set x = m.items()|list %}{{ messages|tojson }}").render(ctx);
    expect(JSON.stringify(ctx)).toBe(before);
  });
});

describe("bulk work takes stepped loops past a few thousand matches, with the same results", () => {
  const render = (t: string, s: string) => compileTemplate(t).render({ s });
  // Expectations from the plain JS operations (what the native fast path computes for few matches).
  it("replace: all, with a count, an empty needle (surrogate pairs are one code point)", () => {
    const s = "ab,".repeat(5000) + "tail";
    expect(render("{{ s|replace('a', '<$&>') }}", s)).toBe(s.split("a").join("<$&>"));
    expect(render("{{ s.replace('b,', '', 4500) }}", s)).toBe("a".repeat(4500) + "ab,".repeat(500) + "tail");
    const t = "x😀".repeat(3000);
    const expected = [...t].map((ch) => "-" + ch).join("") + "-";
    expect(compileTemplate("{{ s.replace('', '-') }}").render({ s: t })).toBe(expected);
    expect(compileTemplate("{{ s.replace('', '-', 5000) }}").render({ s: t })).toBe([...t].slice(0, 5000).map((ch) => "-" + ch).join("") + [...t].slice(5000).join(""));
  });
  it("escape: many characters to escape", () => {
    const s = `<a href="x">'&'</a>`.repeat(2000);
    const expected = s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&#34;").replaceAll("'", "&#39;");
    expect(render("{{ s|e }}", s)).toBe(expected);
    expect(render("{{ (s|e) is escaped }}", s)).toBe("True");
  });
  it("tojson of lists and dicts with thousands of items (json.dumps layout)", () => {
    const n = 5000;
    const items = Array.from({ length: n }, (_, i) => i);
    expect(compileTemplate("{{ l|tojson }}").render({ l: items })).toBe("[" + items.join(", ") + "]");
    expect(compileTemplate("{{ l|tojson(indent=2) }}").render({ l: [items] })).toBe("[\n  [\n    " + items.join(",\n    ") + "\n  ]\n]");
    const d = Object.fromEntries(items.map((i) => ["k" + i, i]));
    expect(compileTemplate("{{ d|tojson }}").render({ d })).toBe("{" + items.map((i) => `"k${i}": ${i}`).join(", ") + "}");
    // A template-made dict (PyDict), int and str keys alike.
    const literal = "{{ {" + items.map((i) => (i % 2 ? `${i}: ${i}` : `'k${i}': ${i}`)).join(", ") + "}|tojson }}";
    expect(compileTemplate(literal).render({})).toBe("{" + items.map((i) => (i % 2 ? `"${i}": ${i}` : `"k${i}": ${i}`)).join(", ") + "}");
  });
  it("repr and repeat of long lists", () => {
    expect(compileTemplate("{{ ([1, 'a'] * 3000)|string|length }}").render({})).toBe(String(("1, 'a', ".repeat(3000).length - 2) + 2));
    expect(compileTemplate("{{ (('x',) * 3)|string }}{{ [] * 3 }}{{ [1] * -2 }}").render({})).toBe("('x', 'x', 'x')[][]");
  });
  it("a native operation that would outlast the budget is refused before it runs", () => {
    // A clock that stands still: the refusal comes from the operation's projected cost alone, not from
    // time the machine spent getting there.
    virtualClock(0);
    const e = failure("{{ s.upper()|length }}", { s: "é".repeat(2_000_000) }, { timeMs: 10 });
    vi.restoreAllMocks();
    expect(e.code).toBe("limit_exceeded");
    expect(e.message).toMatch(/would exceed the render time limit/);
    expect(compileTemplate("{{ s.upper()|length }}").render({ s: "é".repeat(2_000_000) })).toBe("2000000");
  });
});
