/**
 * The GBNF grammars accept real completions of their format (fixtures/completions) and reject calls
 * with wrong argument types, unknown tools, and what tool_choice forbids. Membership is decided by an
 * independent Earley recogniser over the printed grammar text (test/helpers/gbnf-recognizer.ts).
 */
import { describe, expect, it } from "vitest";
import { getFormat } from "../src/formats/index.js";
import type { FormatId } from "../src/formats/types.js";
import { buildGbnf } from "../src/grammar/index.js";
import { caseTools, completionFiles } from "./helpers/fixtures.js";
import { GbnfRecognizer } from "./helpers/gbnf-recognizer.js";

/**
 * Formats whose fixture completions are written in the grammar's canonical form. The other formats'
 * fixtures follow their template's exact layout (values without surrounding newlines, compact JSON),
 * which the generic emitter does not reproduce; for them the sampling test (test/grammar/sampling.test.ts)
 * is what checks that grammar and parser agree.
 */
const FORMATS: FormatId[] = ["hermes", "qwen3-coder", "llama3-json", "mistral", "json-block", "pythonic", "gemma4"];
const ACCEPT_FORMATS: FormatId[] = [...FORMATS, "minimax-m2", "minimax-m1", "lfm2", "phi4-mini", "firefunction-v2", "functionary-v3.1", "harmony"];

/**
 * Fixture cases the grammars deliberately do not produce: the grammar makes the model write its
 * family's canonical form, while the parser also reads these variants that models sometimes emit.
 */
const NOT_CANONICAL: Record<string, string> = {
  "hermes/QwQ: the prompt opened <think>, swapped keys, no newlines": "key order is fixed to name, then arguments",
  "hermes/Granite 4 writes arguments as a JSON string": "arguments must be the schema's object, not a string",
  "llama3-json/type function prefix and arguments key": "the grammar writes Llama's documented {\"name\", \"parameters\"}",
  "qwen3-coder/a string that looks like a number stays a string; arrays of objects are JSON":
    "parameters follow the schema's declared order (this completion writes zip before attendees)",
  "hermes/call written inside reasoning is still a call": "calls come after reasoning; reasoning text holds no marker of the format",
  "qwen3-coder/code value containing a closing tag that is not at a line start":
    "raw values hold no tag of the format at all, so the parser can never end or misread them",
  "harmony/recipient in the role header, as the template renders it":
    "the grammar writes the header gpt-oss writes, the recipient after the channel (`<|channel|>commentary to=functions.f <|constrain|>json`)",
  "harmony/preamble on commentary, then two calls": "text goes on the final channel; a commentary preamble is read as content, but not written",
};

/** End-of-turn tokens end generation; the sampler stops there, so they are not part of what a grammar constrains. */
function withoutEndToken(format: FormatId, text: string): string {
  const ignore = getFormat(format).ignore ?? [];
  for (let changed = true; changed; ) {
    changed = false;
    for (const token of ignore) {
      if (text.endsWith(token)) {
        text = text.slice(0, -token.length);
        changed = true;
      }
    }
  }
  return text;
}

const recognizers = new Map<string, GbnfRecognizer>();
function accepts(format: FormatId, request: unknown, text: string, promptSuffix?: string): boolean {
  const grammar = buildGbnf(format, request, promptSuffix === undefined ? {} : { promptSuffix });
  let r = recognizers.get(grammar);
  if (r === undefined) recognizers.set(grammar, (r = new GbnfRecognizer(grammar)));
  return r.accepts(withoutEndToken(format, text));
}

describe("grammars accept the fixture completions that call declared tools", () => {
  for (const file of completionFiles().filter((f) => ACCEPT_FORMATS.includes(f.format as FormatId))) {
    const format = file.format as FormatId;
    const cases = file.cases.filter((c) => (c.expect.tool_calls?.length ?? 0) > 0 && (c.errors ?? []).length === 0 && caseTools(file, c) !== null);
    it(`${format}: has cases to check`, () => expect(cases.length).toBeGreaterThanOrEqual(3));
    for (const c of cases) {
      const key = `${format}/${c.name}`;
      const request = { tools: caseTools(file, c), ...(c.tool_choice !== undefined ? { tool_choice: c.tool_choice } : {}) };
      if (key in NOT_CANONICAL) {
        it(`${key}: not canonical, rejected (${NOT_CANONICAL[key]})`, () => {
          expect(accepts(format, request, c.completion, c.promptSuffix)).toBe(false);
        });
      } else {
        it(key, () => expect(accepts(format, request, c.completion, c.promptSuffix)).toBe(true));
      }
    }
  }
});

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, days: { type: "integer" }, unit: { type: "string", enum: ["c", "f"] } },
      required: ["city"],
    },
  },
};
const TIME = { type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } };
const TOOLS = { tools: [WEATHER, TIME] };

/** Per format: a good call to get_weather, then the same with wrong types / unknown tool / bad enum. */
const CALLS: Record<string, { good: string; bad: Record<string, string> }> = {
  hermes: {
    good: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo", "days": 3}}\n</tool_call>',
    bad: {
      "integer as string": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo", "days": "3"}}\n</tool_call>',
      "string as number": '<tool_call>\n{"name": "get_weather", "arguments": {"city": 42}}\n</tool_call>',
      "missing required": '<tool_call>\n{"name": "get_weather", "arguments": {"days": 3}}\n</tool_call>',
      "enum violation": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo", "unit": "k"}}\n</tool_call>',
      "unknown tool": '<tool_call>\n{"name": "get_news", "arguments": {}}\n</tool_call>',
      "undeclared property": '<tool_call>\n{"name": "get_time", "arguments": {"tz": "UTC"}}\n</tool_call>',
      "float for integer": '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo", "days": 2.5}}\n</tool_call>',
    },
  },
  "qwen3-coder": {
    good: "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    bad: {
      "integer as text": "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n<parameter=days>\nthree\n</parameter>\n</function>\n</tool_call>",
      "missing required": "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
      "enum violation": "<tool_call>\n<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n<parameter=unit>\nkelvin\n</parameter>\n</function>\n</tool_call>",
      "unknown tool": "<tool_call>\n<function=get_news>\n</function>\n</tool_call>",
    },
  },
  "llama3-json": {
    good: '{"name": "get_weather", "parameters": {"city": "Oslo", "days": 3}}',
    bad: {
      "integer as string": '{"name": "get_weather", "parameters": {"city": "Oslo", "days": "3"}}',
      "boolean for string": '{"name": "get_weather", "parameters": {"city": true}}',
      "unknown tool": '{"name": "get_news", "parameters": {}}',
    },
  },
  mistral: {
    good: '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo", "days": 3}',
    bad: {
      "integer as string": '[TOOL_CALLS]get_weather[ARGS]{"city": "Oslo", "days": "3"}',
      "null for string": '[TOOL_CALLS]get_weather[ARGS]{"city": null}',
      "id of 8 characters": '[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4[ARGS]{"city": "Oslo"}',
      "unknown tool": "[TOOL_CALLS]get_news[ARGS]{}",
    },
  },
  "json-block": {
    good: '```json\n{"name": "get_weather", "arguments": {"city": "Oslo", "days": 3}}\n```',
    bad: {
      "integer as string": '```json\n{"name": "get_weather", "arguments": {"city": "Oslo", "days": "3"}}\n```',
      "array for string": '```json\n{"name": "get_weather", "arguments": {"city": ["Oslo"]}}\n```',
      "unknown tool": '```json\n{"name": "get_news", "arguments": {}}\n```',
    },
  },
  gemma4: {
    good: '<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>,days:3}<tool_call|>',
    bad: {
      "integer as string": '<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>,days:<|"|>3<|"|>}<tool_call|>',
      "missing required": "<|tool_call>call:get_weather{days:3}<tool_call|>",
      "enum violation": '<|tool_call>call:get_weather{city:<|"|>Oslo<|"|>,unit:<|"|>k<|"|>}<tool_call|>',
      "unknown tool": "<|tool_call>call:get_news{}<tool_call|>",
    },
  },
  pythonic: {
    good: "[get_weather(city='Oslo', days=3)]",
    bad: {
      "integer as string": "[get_weather(city='Oslo', days='3')]",
      "JSON true for integer": "[get_weather(city='Oslo', days=True)]",
      "unquoted string": "[get_weather(city=Oslo)]",
      "unknown tool": "[get_news()]",
    },
  },
};

describe("grammars reject wrong calls", () => {
  for (const format of FORMATS) {
    const { good, bad } = CALLS[format]!;
    it(`${format}: a well-typed call is accepted`, () => expect(accepts(format, TOOLS, good)).toBe(true));
    for (const [what, text] of Object.entries(bad)) {
      it(`${format}: ${what} is rejected`, () => expect(accepts(format, TOOLS, text)).toBe(false));
    }
  }
});

describe("tool_choice and parallel_tool_calls", () => {
  const prose = "It is sunny in Oslo today.";
  for (const format of FORMATS) {
    const { good } = CALLS[format]!;
    it(`${format}: auto allows plain text or a call`, () => {
      expect(accepts(format, TOOLS, prose)).toBe(true);
      expect(accepts(format, TOOLS, good)).toBe(true);
    });
    it(`${format}: none allows text only`, () => {
      expect(accepts(format, { ...TOOLS, tool_choice: "none" }, prose)).toBe(true);
      expect(accepts(format, { ...TOOLS, tool_choice: "none" }, good)).toBe(false);
    });
    it(`${format}: required needs a call`, () => {
      expect(accepts(format, { ...TOOLS, tool_choice: "required" }, prose)).toBe(false);
      expect(accepts(format, { ...TOOLS, tool_choice: "required" }, good)).toBe(true);
    });
    it(`${format}: a named choice allows only that tool`, () => {
      expect(accepts(format, { ...TOOLS, tool_choice: { type: "function", function: { name: "get_weather" } } }, good)).toBe(true);
      expect(accepts(format, { ...TOOLS, tool_choice: { type: "function", function: { name: "get_time" } } }, good)).toBe(false);
    });
  }

  const twoCalls: Record<string, string> = {
    hermes: '<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>',
    mistral: "[TOOL_CALLS]get_time[ARGS]{}[TOOL_CALLS]get_time[ARGS]{}",
    pythonic: "[get_time(), get_time()]",
    "llama3-json": '{"name": "get_time", "parameters": {}}\n{"name": "get_time", "parameters": {}}',
  };
  for (const [format, text] of Object.entries(twoCalls)) {
    it(`${format}: parallel_tool_calls false allows one call`, () => {
      expect(accepts(format as FormatId, TOOLS, text)).toBe(true);
      expect(accepts(format as FormatId, { ...TOOLS, parallel_tool_calls: false }, text)).toBe(false);
    });
  }

  it("hermes: text may surround calls, but a call marker in text must be a real call", () => {
    expect(accepts("hermes", TOOLS, `Let me look.\n${CALLS.hermes!.good}\nDone.`)).toBe(true);
    expect(accepts("hermes", TOOLS, "Calls look like <tool_call> tags.")).toBe(false);
  });

  it("json-block: text before and between blocks, and a list of calls in one block", () => {
    const block = CALLS["json-block"]!.good;
    expect(accepts("json-block", TOOLS, `Checking.\n${block}\nand\n${block}`)).toBe(true);
    expect(accepts("json-block", TOOLS, '```json\n[{"name": "get_time", "arguments": {}}, {"name": "get_weather", "arguments": {"city": "Oslo"}}]\n```')).toBe(true);
  });

  it("reasoning comes first; a prompt that opened it makes the output start inside it", () => {
    const thought = "<think>\nThe user wants Oslo.\n</think>\n\n";
    expect(accepts("hermes", TOOLS, thought + CALLS.hermes!.good)).toBe(true);
    expect(accepts("hermes", TOOLS, "The user wants Oslo.\n</think>\n\n" + CALLS.hermes!.good, "<|im_start|>assistant\n<think>\n")).toBe(true);
    // Opened by the prompt, reasoning must be closed before a call.
    expect(accepts("hermes", TOOLS, CALLS.hermes!.good, "<|im_start|>assistant\n<think>\n")).toBe(false);
    expect(accepts("mistral", TOOLS, "[THINK]Oslo.[/THINK]" + CALLS.mistral!.good)).toBe(true);
  });
});
