/**
 * adapt.ts: @huggingface/jinja's parser nodes checked into the typed tree the compiler narrows on. A
 * node type or field the adapter does not know must fail the compile by name (invalid_template), never
 * reach the compiler.
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { adaptProgram } from "../../src/jinja/adapt.js";
import { compileTemplate } from "../../src/jinja/index.js";
import { parseTemplate } from "../../src/jinja/parse.js";

function refused(raw: unknown): ChatwireError {
  try {
    adaptProgram(raw);
  } catch (e) {
    expect(e).toBeInstanceOf(ChatwireError);
    expect((e as ChatwireError).code).toBe("invalid_template");
    return e as ChatwireError;
  }
  throw new Error("expected the adapter to refuse the tree");
}

const id = (value: string): unknown => ({ type: "Identifier", value });
const program = (...body: unknown[]): unknown => ({ type: "Program", body });

function typesIn(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) typesIn(n, into);
  else if (node !== null && typeof node === "object") {
    const r = node as Record<string, unknown>;
    if (typeof r["type"] === "string") into.add(r["type"]);
    for (const v of Object.values(r)) typesIn(v, into);
  }
  return into;
}

describe("adaptProgram", () => {
  it("refuses a node type it does not know, naming it, wherever it sits", () => {
    const deep = program({ type: "If", test: id("x"), body: [{ type: "Output", value: id("y") }], alternate: [] });
    expect(refused(deep).message).toContain("Output");
    const inExpression = program({ type: "FilterExpression", operand: { type: "AwaitExpression", argument: id("x") }, filter: id("trim") });
    expect(refused(inExpression).message).toContain("AwaitExpression");
    expect(refused({ type: "Template", body: [] }).message).toContain("Template");
  });

  it("refuses a known node whose field is missing or of the wrong kind, naming the field", () => {
    expect(refused(program({ type: "If", test: id("x"), body: [] })).message).toContain("alternate");
    expect(refused(program({ type: "If", body: [], alternate: [] })).message).toContain("'test'");
    expect(refused(program({ type: "ArrayLiteral", value: [id("a"), "b"] })).message).toContain("'value'");
    expect(refused(program({ type: "IntegerLiteral", value: "1" })).message).toContain("value");
    expect(refused(program({ type: "BinaryExpression", operator: "+", left: id("a"), right: id("b") })).message).toContain("operator");
    expect(refused(program({ type: "ObjectLiteral", value: [] })).message).toContain("value");
  });

  it("refuses a node where the compiler cannot use it", () => {
    expect(refused(program({ type: "CallExpression", callee: id("f"), args: [{ type: "Break" }] })).message).toBe("unsupported expression: Break");
    expect(refused(program({ type: "Macro", name: id("m"), args: [{ type: "IntegerLiteral", value: 1 }], body: [] })).message).toContain("IntegerLiteral");
    const sliceByDot = { type: "MemberExpression", object: id("a"), property: { type: "SliceExpression" }, computed: false };
    expect(refused(program(sliceByDot)).message).toBe("unsupported expression: SliceExpression");
  });

  it("adapts every node type the parser makes from a template that uses them all", () => {
    const source = [
      "{# c #}{% set ns = namespace(a=1) %}{% set ns.a = 2 %}{% set t %}x{% endset %}",
      "{% macro m(a, b=2) %}{{ a ~ b ~ varargs }}{% endmacro %}{% call(x) m(1, *[2], k=3, **{'z': 4}) %}{{ x }}{% endcall %}",
      "{% for i, j in [(1, 2), (3,)] if i %}{% if i > 1 %}{% break %}{% else %}{% continue %}{% endif %}{% else %}e{% endfor %}",
      "{% filter upper %}{{ -1.5 if not a is defined else a[1:2] | trim }}{{ b.c('d') if e }}{% endfilter %}",
    ].join("");
    const seen = typesIn(parseTemplate(source), new Set());
    // Not Comment: our lexer drops comments before the parser sees them.
    const all = [
      "Program", "If", "For", "Break", "Continue", "Set", "Macro", "CallStatement", "FilterStatement",
      "Identifier", "IntegerLiteral", "FloatLiteral", "StringLiteral", "ArrayLiteral", "TupleLiteral", "ObjectLiteral",
      "MemberExpression", "CallExpression", "BinaryExpression", "UnaryExpression", "FilterExpression", "TestExpression",
      "Ternary", "SelectExpression", "SliceExpression", "KeywordArgumentExpression", "SpreadExpression", "KeywordSpreadExpression",
    ];
    expect([...seen].sort()).toEqual([...all].sort());
  });

  it("drops the lexer's trailing-comma placeholder from a tuple, so (x,) has one item", () => {
    const tree = parseTemplate("{{ (1,) }}");
    expect(tree.body).toEqual([{ type: "TupleLiteral", value: [{ type: "IntegerLiteral", value: 1 }] }]);
    expect(compileTemplate("{{ (1,) }}|{{ (1,)|length }}").render({})).toBe("(1,)|1");
  });
});
