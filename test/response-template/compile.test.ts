/**
 * Compiling response templates into the format language (issue 20, step 2): transformers' fallbacks and
 * hand-written templates for each payload shape compile into descriptions the engine accepts
 * (validateFormat) and parses with; what has no equivalent is refused, naming the field and construct.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCompletion } from "../../src/parse/index.js";
import { validateFormat } from "../../src/parse/validate-format.js";
import { compileResponseTemplate } from "../../src/response-template/compile.js";
import { readPattern } from "../../src/response-template/python-regex.js";
import type { ResponseTemplate, ResponseTemplateField } from "../../src/response-template/types.js";
import { validateResponseTemplate } from "../../src/response-template/validate.js";
import { REPO_ROOT } from "../helpers/fixtures.js";

const FALLBACKS: { id: string; response_template: unknown }[] = JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "response-templates", "fallbacks.json"), "utf8")).templates;
const fallback = (id: string) => validateResponseTemplate(FALLBACKS.find((t) => t.id === id)!.response_template, id);

/** A ChatML-like template whose tool_calls field is `calls`. */
function withCalls(calls: ResponseTemplateField, more: Record<string, ResponseTemplateField> = {}): ResponseTemplate {
  return validateResponseTemplate({ start_anchor: "<|im_start|>assistant\n", fields: { tool_calls: calls, content: { close: "<|im_end|>" }, ...more } }, "test");
}
function compiled(t: ResponseTemplate) {
  const c = compileResponseTemplate(t);
  if (!c.ok) throw new Error(JSON.stringify(c.refusals));
  validateFormat(c.format);
  return c.format;
}
function refusals(t: ResponseTemplate) {
  const c = compileResponseTemplate(t);
  if (c.ok) throw new Error("expected a refusal");
  return c.refusals;
}
const TOOLS = { tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } } } }] };
const calls = (format: ReturnType<typeof compiled>, text: string) =>
  parseCompletion(format, text, TOOLS).message.tool_calls?.map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) }));
const FUNCTION = { type: "function", function: { name: "{name}", arguments: "{content}" } };

describe("transformers' fallbacks compile", () => {
  it("qwen2 (Qwen2/Qwen3): JSON calls in <tool_call>, <think> reasoning, end-of-turn markers ignored", () => {
    expect(compiled(fallback("qwen2"))).toEqual({
      id: "response-template",
      description: "compiled from the model's response_template",
      reasoning: [{ start: ["<think>"], end: ["</think>"] }],
      regions: [{ start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "json-calls", nameKeys: ["name"], argsKeys: ["arguments"] } }],
      ignore: ["<|im_end|>", "<|endoftext|>", "<|eot_id|>"],
    });
  });
  it("qwen3_5: tagged <function=f><parameter=k> calls inside <tool_call>", () => {
    expect(compiled(fallback("qwen3_5")).regions).toEqual([
      {
        start: ["<tool_call>"],
        end: ["</tool_call>"],
        payload: { kind: "tagged", call: { open: ["<function={name}>"], close: "</function>" }, params: { open: ["<parameter={key}>"], close: "</parameter>" }, untyped: "string" },
      },
    ]);
  });
  it("gemma4: Gemma's call dialect after <|tool_call>call:", () => {
    const f = compiled(fallback("gemma4"));
    expect(f.regions).toEqual([{ start: ["<|tool_call>call:"], end: ["<tool_call|>"], payload: { kind: "literal-calls", dialect: "gemma" } }]);
    expect(f.reasoning).toEqual([{ start: ["<|channel>thought\n"], end: ["<channel|>"] }]);
    expect(f.ignore).toEqual(["<turn|>", "<|tool_response>", "<eos>"]);
    expect(calls(f, '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>')).toEqual([{ name: "get_weather", arguments: { city: "Paris", days: 3 } }]);
  });
});

describe("hand-written templates compile to each payload kind", () => {
  it("a captured name then JSON arguments: header-args", () => {
    const f = compiled(withCalls({ open_pattern: "<tool_call>(?P<name>\\w+)\\n", close: "</tool_call>", content: "json", repeats: true, transform: FUNCTION }));
    expect(f.regions[0]!.payload).toEqual({ kind: "header-args", header: ["{name}"], headerEnd: ["\n"] });
    expect(calls(f, '<tool_call>get_weather\n{"city": "Oslo"}</tool_call>')).toEqual([{ name: "get_weather", arguments: { city: "Oslo" } }]);
  });
  it("a JSON list whose elements are calls (transform_each), with the keys and the id named", () => {
    const f = compiled(
      withCalls({ open: "[TOOL_CALLS]", close: "</s>", content: "json", transform_each: true, transform: { id: "{id}", type: "function", function: { name: "{tool}", arguments: "{args}" } } }),
    );
    expect(f.regions[0]!.payload).toEqual({ kind: "json-calls", nameKeys: ["tool"], argsKeys: ["args"], idKeys: ["id"] });
    expect(calls(f, '[TOOL_CALLS][{"tool": "get_weather", "args": {"city": "Rome"}, "id": "abc123def"}]</s>')).toEqual([{ name: "get_weather", arguments: { city: "Rome" } }]);
  });
  it("a bare call tag (no wrapper): a region that starts in its payload", () => {
    const f = compiled(
      withCalls({
        open_pattern: "<function=(?P<name>[^>\\n]+)>",
        close: "</function>",
        content: "xml-inline",
        repeats: true,
        content_args: { tag_pattern: "<parameter=(?P<key>[^>\\n]+)>\\s*(?P<value>.*?)\\s*</parameter>" },
        transform: FUNCTION,
      }),
    );
    expect(f.regions[0]).toMatchObject({ start: ["<function="], startInPayload: true });
    expect(calls(f, "<function=get_weather>\n<parameter=days>\n4\n</parameter>\n</function>")).toEqual([{ name: "get_weather", arguments: { days: 4 } }]);
  });
  it("literal alternatives in a pattern become alternative markers", () => {
    const t = withCalls({ open: "<tool_call>", close: "</tool_call>", content: "json", repeats: true, transform: { type: "function", function: "{content}" } }, {
      thinking: { open_pattern: "(?:<think>|<thinking>)\\s*", close_pattern: "\\s*(?:</think>|</thinking>)" },
    });
    expect(compiled(t).reasoning).toEqual([{ start: ["<think>", "<thinking>"], end: ["</think>", "</thinking>"] }]);
  });
});

describe("the constructs chatwire's export writes compile back", () => {
  const TAGS = { open_pattern: "<function=(?P<name>[^\\s>]+)>", close: "</function>", content: "xml-inline" as const, repeats: true, transform: FUNCTION };
  it("a top-level alternation of literal markers: each alternative's markers, whitespace at their ends dropped", () => {
    const t = withCalls({ ...TAGS, content_args: { tag_pattern: "<parameter=(?P<key>[^>]+)>(?P<value>.*?)</parameter>" } }, { content: { close_pattern: "<\\|im_end\\|>|<tool_call>\\s*|\\s*</tool_call>" } });
    expect(compiled(t).ignore).toEqual(["<|im_end|>", "<tool_call>", "</tool_call>"]);
  });
  it("\\n? around a value and the value-end lookahead: the tagged payload's afterParam and afterParamNewline", () => {
    const tag = "<parameter=(?P<key>[^>]+)>\\n?(?P<value>.*?)\\n?</parameter>(?=\\s*\\Z|(?:[^\\S\\n]*\\n\\s*)?(?:<parameter=|</function>))";
    const f = compiled(withCalls({ ...TAGS, content_args: { tag_pattern: tag } }));
    expect(f.regions[0]!.payload).toMatchObject({ kind: "tagged", afterParam: ["<parameter=", "</function>"], afterParamNewline: true });
    const code = '<function=get_weather>\n<parameter=city>\nx = "</parameter>"\n</parameter>\n</function>';
    expect(calls(f, code)).toEqual([{ name: "get_weather", arguments: { city: 'x = "</parameter>"' } }]);
  });
  it("GLM's key and value tags after a name that is the region's leading text", () => {
    const t = withCalls({ open_pattern: "<tool_call>\\s*(?P<name>[^\\s<]+)", close: "</tool_call>", content: "xml-inline", repeats: true, transform: FUNCTION, content_args: { tag_pattern: "<arg_key>\\s*(?P<key>.*?)\\s*</arg_key>\\s*<arg_value>\\n?(?P<value>.*?)\\n?</arg_value>" } });
    const f = compiled(t);
    expect(f.regions[0]).toMatchObject({ start: ["<tool_call>"], end: ["</tool_call>"], payload: { kind: "tagged", params: { key: { open: "<arg_key>", close: "</arg_key>" }, value: { open: "<arg_value>", close: "</arg_value>" } } } });
    expect(calls(f, "<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Oslo</arg_value>\n</tool_call>")).toEqual([{ name: "get_weather", arguments: { city: "Oslo" } }]);
  });
  it("thinking's call boundaries (close before a call, open again after one while the block is open) are read; other lookarounds are not", () => {
    const json = { open: "<tool_call>", close: "</tool_call>", content: "json" as const, repeats: true, transform: { type: "function", function: "{content}" } };
    const boundaries = { open_pattern: "<think>|(?<=</tool_call>)(?<=<think>(?:(?!</think>).)*)", close_pattern: "</think>|(?=<tool_call>)" };
    expect(compiled(withCalls(json, { thinking: boundaries })).reasoning).toEqual([{ start: ["<think>"], end: ["</think>"] }]);
    const elsewhere = refusals(withCalls(json, { thinking: { ...boundaries, close_pattern: "</think>|(?=<answer>)" } }));
    expect(elsewhere).toEqual([expect.objectContaining({ field: "response_template.fields.thinking", construct: "a lookaround" })]);
  });
});

describe("what cannot be compiled is refused with its reason", () => {
  const json = { open: "<tool_call>", close: "</tool_call>", content: "json" as const, repeats: true, transform: { type: "function", function: "{content}" } };
  const cases: [string, ResponseTemplate, string, RegExp][] = [
    ["kv-lines calls", withCalls({ ...json, content: "kv-lines" }), "response_template.fields.tool_calls.content", /kv-lines/],
    ["a lookahead", withCalls({ ...json, open: undefined, open_pattern: "<tool_call>(?=\\{)" } as ResponseTemplateField), "response_template.fields.tool_calls.open_pattern", /lookaround/],
    ["a backreference", withCalls({ ...json }, { thinking: { open_pattern: "<(think)>", close_pattern: "</\\1>" } }), "response_template.fields.thinking.open_pattern", /group/],
    ["an optional character", withCalls({ ...json }, { thinking: { open_pattern: "<think>\\n?", close: "</think>" } }), "response_template.fields.thinking.open_pattern", /quantifier \?/],
    ["allow_non_json", withCalls({ ...json, content_args: { allow_non_json: true } }), "response_template.fields.tool_calls.content_args", /allow_non_json/],
    ["a value parser", withCalls({ open_pattern: "<function=(?P<name>\\w+)>", close: "</function>", content: "xml-inline", repeats: true, content_args: { tag_pattern: "<p=(?P<key>\\w+)>(?P<value>.*?)</p>", value_parser: { name: "json" } }, transform: FUNCTION }), "response_template.fields.tool_calls.content_args", /value_parser/],
    ["calls without repeats", withCalls({ ...json, repeats: false }), "response_template.fields.tool_calls.repeats", /repeats: false/],
    ["an output key chatwire has no field for", withCalls({ ...json }, { citations: { open: "<cite>", close: "</cite>" } }), "response_template.fields.citations", /output key citations/],
    ["typed thinking", withCalls({ ...json }, { thinking: { open: "<think>", close: "</think>", content: "int" } }), "response_template.fields.thinking.content", /content int/],
    ["an extra transform key", withCalls({ ...json, transform: { type: "function", function: "{content}", index: 0 } }), "response_template.fields.tool_calls.transform", /index/],
  ];
  it.each(cases)("%s", (_name, template, field, construct) => {
    const found = refusals(template);
    expect(found.map((r) => r.field)).toContain(field);
    expect(found.find((r) => r.field === field)!.construct).toMatch(construct);
  });
  it("defaults other than the role", () => {
    const t = validateResponseTemplate({ defaults: { role: "assistant", name: "bot" }, start_anchor: "x", fields: { content: {} } }, "test");
    expect(refusals(t)).toEqual([expect.objectContaining({ field: "response_template.defaults.name" })]);
  });
  it("lists every refusal, not just the first", () => {
    const t = withCalls({ ...json, content: "kv-lines" }, { citations: { open: "<cite>", close: "</cite>" } });
    expect(refusals(t)).toHaveLength(2);
  });
});

describe("reading Python regex anchors", () => {
  it("reads literals, escapes, whitespace runs, literal alternations and named holes", () => {
    expect(readPattern("\\s*<\\|tool_call>call:(?P<name>\\w+)")).toEqual({
      ok: true,
      pieces: [{ kind: "space", min: 0 }, { kind: "literal", text: "<|tool_call>call:" }, { kind: "group", name: "name", body: "\\w+", lazyAny: false }],
    });
    expect(readPattern("(?:<\\|im_end\\|>|<eos>)")).toEqual({ ok: true, pieces: [{ kind: "alternatives", options: ["<|im_end|>", "<eos>"] }] });
    expect(readPattern("{name}")).toEqual({ ok: true, pieces: [{ kind: "literal", text: "{name}" }] });
  });
  it("reads whitespace before a lookahead as whitespace, and a class hole with escapes", () => {
    expect(readPattern("</tool_call>(?:\\s*(?=<tool_call>))?")).toEqual({ ok: true, pieces: [{ kind: "literal", text: "</tool_call>" }, { kind: "space", min: 0 }] });
    expect(readPattern("(?:\\s*(?=<a>))b")).toMatchObject({ ok: false });
    expect(readPattern("(?:\\s*(?=<a>)x)?")).toMatchObject({ ok: false });
    expect(readPattern("<f=(?P<name>[^\\s\\[\\],]+)>")).toMatchObject({ ok: true, pieces: [{ kind: "literal", text: "<f=" }, { kind: "group", name: "name" }, { kind: "literal", text: ">" }] });
  });
  it("compiles text fields with strip either way (chatwire keeps text as written), and nothing else there", () => {
    const json = { open: "<tool_call>", close: "</tool_call>", content: "json" as const, repeats: true, transform: { type: "function", function: "{content}" } };
    expect(compileResponseTemplate(withCalls(json, { thinking: { open: "<think>", close: "</think>", content_args: { strip: false } } })).ok).toBe(true);
    expect(refusals(withCalls(json, { thinking: { open: "<think>", close: "</think>", content_args: { strip: false, lower: true } } }))).toEqual([
      expect.objectContaining({ field: "response_template.fields.thinking.content_args" }),
    ]);
  });
  it.each([
    ["a(?!b)", "a lookaround"],
    ["\\bword", "the escape \\b"],
    ["a.b", "the wildcard ."],
    ["^start", "the anchor ^"],
    ["[ab]", "a character class outside a named group"],
    ["(?P<name>\\w)", "the named group name's body \\w"],
    ["a{2}", 'the quantifier { on "a"'],
    ["(?:a|b)+", "a quantified group (?:a|b)+"],
  ])("refuses %s: %s", (src, construct) => {
    expect(readPattern(src)).toMatchObject({ ok: false, construct });
  });
});

describe("the templates of transformers' own tests (transformers-tests.json)", () => {
  const TESTED: { id: string; response_template: unknown }[] = JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "response-templates", "transformers-tests.json"), "utf8")).templates;
  const compile = (id: string) => compileResponseTemplate(validateResponseTemplate(TESTED.find((t) => t.id === id)!.response_template, id));
  it("Cohere compiles: a JSON list of calls named by tool_name and parameters; the response wrapper is ignored", () => {
    const c = compile("cohere");
    if (!c.ok) throw new Error(JSON.stringify(c.refusals));
    validateFormat(c.format);
    expect(c.format.regions).toEqual([{ start: ["<|START_ACTION|>"], end: ["<|END_ACTION|>"], payload: { kind: "json-calls", nameKeys: ["tool_name"], argsKeys: ["parameters"] } }]);
    expect(c.format.ignore).toEqual(["<|START_RESPONSE|>", "<|END_RESPONSE|>"]);
  });
  it("SmolLM3 compiles to the hermes syntax", () => {
    const c = compile("smollm3");
    expect(c.ok && c.format.regions[0]!.payload).toEqual({ kind: "json-calls", nameKeys: ["name"], argsKeys: ["arguments"] });
  });
  it.each([
    ["ernie", [["response_template.fields.thinking.open_pattern", "a group other than a named hole or a literal alternation"], ["response_template.fields.content.close_pattern", 'the quantifier ? on "\\n"']]],
    ["gpt-oss", [["response_template.fields.tool_calls.open_pattern", "the wildcard ."]]],
    ["qwen3-xml", [["response_template.fields.tool_calls.close", "a close without a call tag and a region tag"]]],
    [
      "inkling",
      [
        // strip: false is what chatwire does anyway; the optional headers are refused.
        ["response_template.fields.thinking.open_pattern", "a quantified group (?:<\\|message_model\\|>)?"],
        ["response_template.fields.content.open_pattern", "a quantified group (?:<\\|message_model\\|>)?"],
        ["response_template.fields.tool_calls.open_pattern", "a quantified group (?:<\\|message_model\\|>)?"],
      ],
    ],
  ])("%s is refused, naming each field and construct", (id, expected) => {
    const c = compile(id as string);
    expect(c.ok).toBe(false);
    if (!c.ok) expect(c.refusals.map((r) => [r.field, r.construct])).toEqual(expected);
  });
});
