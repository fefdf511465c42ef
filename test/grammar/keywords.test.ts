/**
 * JSON Schema keywords enforced in GBNF: integer ranges (minimum, maximum, exclusive bounds), string
 * lengths and `pattern` (regex -> GBNF). Each translation is checked against the keyword itself: the
 * independent recogniser accepts exactly the integers of the range, and every string sampled from a
 * pattern's grammar matches the pattern (JavaScript's RegExp, as ajv runs it), while examples of the
 * pattern are accepted. Patterns outside the subset are left unenforced and named in the grammar.
 */
import { describe, expect, it } from "vitest";
import { buildGbnf } from "../../src/grammar/index.js";
import { integerBounds, integerRange } from "../../src/grammar/int-range.js";
import { regexToGbnf } from "../../src/grammar/regex-gbnf.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";
import { seededRandom } from "../helpers/rng.js";
import { GbnfSampler } from "./sampler.js";
import { KEYWORD_TOOLS } from "./tools.js";

describe("integer ranges", () => {
  const cases: [number | undefined, number | undefined][] = [
    [0, 23], [1, 12], [-5, 5], [-120, -7], [10, undefined], [undefined, -3], [undefined, 999], [37, 37], [5, 1204], [-1, 0], [0, 0], [100, 199], [99, 100],
  ];
  for (const [min, max] of cases) {
    it(`[${min ?? "-inf"}, ${max ?? "inf"}]: exactly the integers in range, written canonically`, () => {
      const expr = integerRange(min === undefined ? undefined : BigInt(min), max === undefined ? undefined : BigInt(max));
      const r = new GbnfRecognizer(`root ::= ${expr}\n`);
      const probes = new Set<number>([0, 1, -1, 9, 10, 11, 99, 100, 101, 999, 1000, -10, -99, -100]);
      for (const b of [min, max]) if (b !== undefined) for (let d = -3; d <= 3; d++) probes.add(b + d);
      const random = seededRandom(7 + (min ?? 0) * 31 + (max ?? 0));
      for (let n = 0; n < 60; n++) probes.add(Math.floor((random() - 0.5) * 4000));
      for (const n of probes) {
        const inside = (min === undefined || n >= min) && (max === undefined || n <= max);
        expect(r.accepts(String(n)), String(n)).toBe(inside);
      }
      if (min === undefined || min <= 0) expect(r.accepts("-0")).toBe(false);
      expect(r.accepts("007")).toBe(false);
    });
  }

  it("exclusive bounds (numbers and draft-4 booleans) and fractional bounds", () => {
    expect(integerBounds({ exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({ min: 1n, max: 9n });
    expect(integerBounds({ minimum: 0, exclusiveMinimum: true, maximum: 5 })).toEqual({ min: 1n, max: 5n });
    expect(integerBounds({ minimum: 1.5, maximum: 3.5 })).toEqual({ min: 2n, max: 3n });
    expect(integerBounds({ minimum: 3, exclusiveMinimum: 5 })).toEqual({ min: 6n });
    expect(integerRange(5n, 4n)).toBeUndefined();
  });
});

describe("patterns", () => {
  const patterns: [string, string[]][] = [
    ["^[A-Z]{3}-\\d{2}$", ["ABC-12"]],
    ["^(foo|bar)+$", ["foobarfoo"]],
    ["abc", ["abc", "xxabcyy", 'say "abc"']],
    ["^\\w+@\\w+\\.com$", ["a_1@b.com"]],
    ["^[^\"]{2,4}$", ["ab", "a\\b\n"]],
    ["^.{1,5}$", ["x", '"q"\t']],
    ["^[\\s\\S]*$", ["", "any\nthing"]],
    ["^\\d{4}-\\d{2}-\\d{2}$", ["2024-01-31"]],
    ["^(\\+|-)?[0-9]+(\\.[0-9]+)?$", ["-1.5", "42"]],
    ["^[a-z]+(?:_[a-z]+)*$", ["snake_case_name"]],
    ["^\\\\x\"$", ['\\x"']],
    ["^<[a-z]+>$", ["<b>"]],
  ];
  for (const encoding of ["json", "python"] as const) {
    for (const [pattern, examples] of patterns) {
      it(`${encoding} ${pattern}: samples match, examples are accepted`, () => {
        const out = regexToGbnf(pattern, encoding, ["<"]);
        if (!("expr" in out)) throw new Error(out.reason);
        const quote = encoding === "json" ? '"\\""' : `"'"`;
        const grammar = `root ::= ${quote} ${out.expr} ${quote}\n`;
        const regex = new RegExp(pattern, "u");
        const random = seededRandom(pattern.length * 977);
        const sampler = new GbnfSampler(grammar);
        for (let n = 0; n < 40; n++) {
          const { text } = sampler.sample(random, { budget: 24 });
          // The marker's first character is only ever escaped.
          expect(text.slice(1, -1)).not.toContain("<");
          const value = encoding === "json" ? (JSON.parse(text) as string) : pyString(text);
          expect(regex.test(value), `${JSON.stringify(text)} -> ${JSON.stringify(value)}`).toBe(true);
        }
        const r = new GbnfRecognizer(grammar);
        for (const example of examples) {
          const written = (encoding === "json" ? JSON.stringify(example) : pyWrite(example)).replace(/</g, encoding === "json" ? "\\u003c" : "\\x3c");
          expect(r.accepts(written), written).toBe(true);
        }
        expect(r.accepts(encoding === "json" ? '"\u0001"' : "'\u0001'")).toBe(false);
      });
    }
  }

  it("raw text refuses a pattern that writes a marker's first character or a newline", () => {
    expect(regexToGbnf("^[a-z]+$", "raw", ["<"])).toHaveProperty("expr");
    expect(regexToGbnf("^<b>$", "raw", ["<"])).toEqual({ reason: 'it writes "<", which starts a marker' });
    expect(regexToGbnf("^a\\nb$", "raw", ["\n"])).toHaveProperty("reason");
  });

  it("what GBNF cannot express is refused with the reason", () => {
    for (const [pattern, reason] of [["^(?=a)b$", "lookaround"], ["^(a)\\1$", "\\1"], ["^a\\b", "\\b"], ["^\\p{L}+$", "\\p"], ["a^b", "an anchor ^ inside the pattern"]]) {
      expect(regexToGbnf(pattern!, "json"), pattern).toEqual({ reason: reason });
    }
  });
});

describe("keywords in a whole grammar", () => {
  // One number range and one lookahead, which GBNF cannot enforce, beside enforced keywords.
  const base = KEYWORD_TOOLS[0]!.function;
  const params = base.parameters as { properties: Record<string, unknown>; required: string[] };
  const tool = {
    type: "function",
    function: {
      name: base.name,
      parameters: { ...params, properties: { ...params.properties, ratio: { type: "number", minimum: 0 }, ref: { type: "string", pattern: "^(?!x)" } } },
    },
  };
  for (const format of ["hermes", "qwen3-coder", "pythonic", "gemma4"] as const) {
    it(`${format}: ranges, lengths and patterns are enforced; the rest is named`, () => {
      const grammar = buildGbnf(format, { tools: [tool], tool_choice: "required" });
      const relaxed = /^# relaxed[^\n]*$/m.exec(grammar)?.[0] ?? "";
      expect(relaxed).not.toMatch(/maximum|pattern \(.*at set_alarm-args-code|maxLength/);
      expect(relaxed).toContain("minimum (number) at");
      expect(relaxed).toContain("pattern (lookaround) at");
    });
  }
  it("hermes: the call is accepted exactly when it validates", () => {
    const r = new GbnfRecognizer(buildGbnf("hermes", { tools: [tool], tool_choice: "required" }));
    const call = (args: string) => `<tool_call>\n{"name": "set_alarm", "arguments": ${args}}\n</tool_call>`;
    expect(r.accepts(call('{"hour": 23, "minute": 59, "label": "wake up", "code": "AB-123"}'))).toBe(true);
    expect(r.accepts(call('{"hour": 24, "minute": 0, "label": "wake up", "code": "AB-123"}'))).toBe(false);
    expect(r.accepts(call('{"hour": 7, "minute": 60, "label": "wake up", "code": "AB-123"}'))).toBe(false);
    expect(r.accepts(call('{"hour": 7, "minute": 0, "label": "wake up now!!", "code": "AB-123"}'))).toBe(false);
    expect(r.accepts(call('{"hour": 7, "minute": 0, "label": "x", "code": "ab-123"}'))).toBe(false);
  });
});

/** A single-quoted Python string literal's value (the escapes the grammar writes). */
function pyString(text: string): string {
  const body = text.slice(1, -1);
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|.)/gs, (_, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return ({ n: "\n", t: "\t", r: "\r" } as Record<string, string>)[e] ?? e;
  });
}

function pyWrite(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/\r/g, "\\r")}'`;
}
