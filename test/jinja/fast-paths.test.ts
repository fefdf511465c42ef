/**
 * The compiler's fast paths give what the general ones give: an output statement that is a `+` chain
 * (written piece by piece while its operands are strings), loop frames built around the target's names,
 * and attribute reads decided when the template compiles. Expected strings and errors come from
 * Python (jinja2 3.1.6 through transformers' environment).
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { Markup } from "../../src/jinja/values.js";
import { compileTemplate, type GenerationSpan } from "../../src/jinja/index.js";

const render = (src: string, ctx: Record<string, unknown> = {}) => compileTemplate(src).render(ctx);
function failure(src: string, ctx: Record<string, unknown> = {}): string {
  try {
    render(src, ctx);
  } catch (e) {
    expect(e).toBeInstanceOf(ChatwireError);
    return (e as ChatwireError).message;
  }
  throw new Error("expected an error");
}

describe("an output `+` chain", () => {
  it("writes the strings' concatenation", () => {
    expect(render("{{ '<|im_start|>' + role + '\\n' + content + '' + '<|im_end|>' }}", { role: "user", content: "hi" })).toBe("<|im_start|>user\nhi<|im_end|>");
  });

  it("goes on as pyAdd after a Markup operand (the strings before it are escaped together)", () => {
    expect(render("{{ '<' + 'b' + ('>'|safe) + '<' }}")).toBe("&lt;b>&lt;");
    expect(render("{{ 'a&' + x }}", { x: new Markup("<i>") })).toBe("a&amp;<i>");
  });

  it("raises Python's error for a non-string operand anywhere in the chain", () => {
    expect(failure("{{ 'a' + 'b' + 1 + 'c' }}")).toBe('can only concatenate str (not "int") to str');
    expect(failure("{{ 'a' + 'b' + x + 'c' }}")).toBe("'x' is undefined");
    expect(render("{{ 1 + 2 + 3 }}")).toBe("6");
  });

  it("keeps a macro's output where its call stands", () => {
    expect(render("{% macro m() %}M{% endmacro %}{{ 'a' + m() + 'b' }}")).toBe("aMb");
  });

  it("reports the same {% generation %} spans", () => {
    const spans: GenerationSpan[] = [];
    const src = "{% macro m() %}{% generation %}G{% endgeneration %}{% endmacro %}{{ 'ab' + m() + 'c' }}{% generation %}{{ 'x' + 'y' }}{% endgeneration %}";
    expect(compileTemplate(src).render({}, { generationSpans: spans })).toBe("abGcxy");
    expect(spans).toEqual([
      { start: 0, end: 1 },
      { start: 4, end: 6 },
    ]);
  });

  it("counts the whole text against the output limit", () => {
    const src = "{{ 'abc' + 'def' }}";
    expect(compileTemplate(src).render({}, { limits: { maxOutputBytes: 6 } })).toBe("abcdef");
    expect(() => compileTemplate(src).render({}, { limits: { maxOutputBytes: 5 } })).toThrow(/size limit/);
  });
});

describe("loop frames", () => {
  it("bind a tuple target, loop, and names set in the body", () => {
    expect(render("{% for a, b in [(1, 2), (3, 4)] %}{{ a }}{{ b }}{{ loop.index }}{% set c = a %}{{ c }}{% endfor %}")).toBe("12113423");
    expect(render("{% for (a,) in [(1,), (2,)] %}{{ a }}{% endfor %}")).toBe("12");
    expect(render("{% for a, b in ['xy'] %}{{ b }}{{ a }}{% endfor %}")).toBe("yx");
  });

  it("raise Python's unpacking errors", () => {
    expect(failure("{% for a, b in [(1, 2, 3)] %}{% endfor %}")).toBe("too many values to unpack (expected 2)");
    expect(failure("{% for a, b in [(1,)] %}{% endfor %}")).toBe("not enough values to unpack (expected 2, got 1)");
  });

  it("do not share a set name between iterations", () => {
    expect(render("{% for x in [1, 2] %}{{ y is defined }}{% set y = x %}{{ y }}{% endfor %}")).toBe("False1False2");
  });
});

describe("attribute reads", () => {
  it("read dict items, loop fields, and methods the same way as getattr", () => {
    expect(render("{{ d.role }}|{{ d.items()|list }}|{{ d.missing is defined }}", { d: { role: "user" } })).toBe("user|[('role', 'user')]|False");
    expect(render("{% for x in 'ab' %}{{ loop.index0 }}{{ loop.nope is defined }}{% endfor %}")).toBe("0False1False");
    expect(render("{{ {'role': 'x'}.role }}{{ dict(a=1).a }}")).toBe("x1");
  });
});

describe("attribute memos (the last item read under a name, kept for the render)", () => {
  it("read the same item at every place, and a changed dict afresh in the next render", () => {
    const t = compileTemplate("{{ m.role }}{% if m.role == 'user' %}={{ m.role }}{% endif %}{{ n.role }}{{ m.role }}");
    const m: Record<string, unknown> = { role: "user" };
    expect(t.render({ m, n: { role: "tool" } })).toBe("user=usertooluser");
    m["role"] = "system";
    expect(t.render({ m, n: { role: "tool" } })).toBe("systemtoolsystem");
  });

  it("keep no miss: each one is an Undefined of its own, as in Jinja2", () => {
    expect(render("{{ m.x is sameas(m.x) }}|{{ m.x is defined }}|{{ m.x is defined }}", { m: {} })).toBe("False|False|False");
  });

  it("never run a getter, read twice or not", () => {
    let calls = 0;
    const m = Object.defineProperty({ role: "user" }, "secret", { get: () => (calls++, "s"), enumerable: true });
    expect(render("{{ m.secret }}{{ m.secret is defined }}{{ m.role }}{{ m.role }}", { m })).toBe("Falseuseruser");
    expect(calls).toBe(0);
  });

  it("are not kept past an error", () => {
    const t = compileTemplate("{{ m.role }}{{ raise_exception('stop') if stop }}");
    expect(() => t.render({ m: { role: "a" }, stop: true })).toThrow("stop");
    expect(t.render({ m: { role: "b" }, stop: false })).toBe("b");
  });
});

describe("str method calls and comparisons with a string literal", () => {
  it("call str methods on a str, and read the attribute of anything else", () => {
    expect(render("{{ s.strip() }}|{{ s.split(',') }}|{{ ('<a>'|safe).upper() is escaped }}", { s: " a,b " })).toBe("a,b|[' a', 'b ']|True");
    expect(render("{{ d.strip is defined }}", { d: {} })).toBe("False");
    expect(failure("{{ 'x'.replace('a', 'b', count=1) }}")).toBe("str.replace() takes no keyword arguments");
    expect(failure("{{ nope.strip() }}")).toBe("'nope' is undefined");
  });

  it("compare a str, a Markup, a number or Undefined with a string literal as pyEq does", () => {
    expect(render("{{ r == 'user' }}{{ r != 'user' }}{{ ('user'|safe) == 'user' }}{{ 1 == '1' }}{{ nope == 'x' }}", { r: "user" })).toBe("TrueFalseTrueFalseFalse");
  });
});

describe("int arithmetic and namespace reads", () => {
  it("adds and subtracts ints exactly past 2^53, floats as floats", () => {
    expect(render("{{ 2 + 3 }} {{ 5 - 7 }} {{ 9007199254740991 + 1 }} {{ -9007199254740991 - 2 }} {{ 1 + 1.0 }} {{ True + 1 }}")).toBe(
      "5 -2 9007199254740992 -9007199254740993 2.0 2",
    );
  });

  it("reads a namespace's attributes, Undefined for one it lacks", () => {
    expect(render("{% set ns = namespace(a=1) %}{{ ns.a }}{{ ns.b is defined }}{% set ns.b = 2 %}{{ ns.b }}")).toBe("1False2");
  });
});
