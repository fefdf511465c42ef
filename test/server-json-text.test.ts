/** The server's JSON out (src/server/json-text.ts): PyFloat printed as its number wherever it sits, all else as JSON.stringify prints it. */
import { describe, expect, it } from "vitest";
import { PyFloat } from "../src/jinja/py-float.js";
import { readJson } from "../src/request/read-json.js";
import { chunkText } from "../src/server/chunk-text.js";
import { toJson, toJsonBytes } from "../src/server/json-text.js";

describe("toJson", () => {
  it("prints PyFloat as a number at any depth, and everything else as JSON.stringify", () => {
    const deep = { a: [1, 2, { b: [new PyFloat(1), "x"] }], c: null };
    expect(toJson(deep)).toBe('{"a":[1,2,{"b":[1,"x"]}],"c":null}');
    expect(toJson([new PyFloat(2)])).toBe("[2]");
    expect(toJson(new PyFloat(3))).toBe("3");
    const read = readJson('{"t": 1.0, "ids": [1, 2, 3], "s": {"k": [0.5, 2.0]}}');
    expect(toJson(read)).toBe('{"t":1,"ids":[1,2,3],"s":{"k":[0.5,2]}}');
    const plain = { ids: Array.from({ length: 1000 }, (_, i) => i), text: "a\u2028b", when: new Date(0), nested: { toJSON: () => ({ f: new PyFloat(4) }) } };
    expect(toJson(plain)).toBe(JSON.stringify({ ...plain, nested: { f: 4 } }));
    expect(toJson(undefined)).toBe(undefined);
  });
});

describe("chunkText", () => {
  const head = { id: "chatcmpl-ab\"c", created: 1764633600, model: "qwen/\u2028x" };
  /** The chunk object the stream once built and printed; the text must be the same. */
  const object = (choices: unknown[], extra: Record<string, unknown> = {}): string => toJson({ ...head, object: "chat.completion.chunk", choices, ...extra }) as string;
  const choice = (delta: unknown, finish: string | null = null): unknown => ({ index: 0, delta, finish_reason: finish, logprobs: null });

  it("prints each chunk as toJson of its object would", () => {
    const chunk = chunkText(head);
    const deltas = [{ role: "assistant", content: "" }, { content: 'a "quote"\n' }, { reasoning_content: "é" }, { tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "f", arguments: '{"x": 1}' } }] }, {}];
    for (const delta of deltas) expect(chunk.choice(delta)).toBe(object([choice(delta)]));
    const errors = [{ index: 1, message: "bad" }];
    expect(chunk.choice({}, "tool_calls", { key: "chatwire_errors", value: errors })).toBe(object([choice({}, "tool_calls")], { chatwire_errors: errors }));
    expect(chunk.choice({}, "stop", { key: "chatwire_errors", value: [] })).toBe(object([choice({}, "stop")], { chatwire_errors: [] }));
    const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
    expect(chunk.noChoices("usage", usage)).toBe(object([], { usage }));
    expect(chunk.noChoices("usage", null)).toBe(object([], { usage: null }));
    expect(chunk.choice({ content: new PyFloat(1) })).toBe(object([choice({ content: 1 })]));
  });
});

describe("toJsonBytes", () => {
  it("prints a body as the UTF-8 bytes of toJson, long strings kept or not, every time", () => {
    const grammar = `root ::= "<tool_call>" "\\"x\\"" \n${"a ::= [0-9] | \"\\u2028\" \n".repeat(200)}`;
    const bodies: Record<string, unknown>[] = [
      { prompt: [1, 2, 3], stream: true, grammar, grammar_lazy: true, grammar_triggers: [{ type: 1, value: "<tool_call>" }] },
      { 2: "int key first", prompt: "text", skip: undefined, f: () => 1, t: new PyFloat(1), grammar, nested: { g: grammar, x: [new PyFloat(0.5)] } },
      { grammar: `${grammar}!`, other: grammar },
      {},
      { only: undefined },
    ];
    for (let round = 0; round < 2; round++) for (const body of bodies) expect(toJsonBytes(body).equals(Buffer.from(toJson(body) as string, "utf8"))).toBe(true);
  });

  it("gives the bytes of non-ASCII text, long or short, keys included, and a lone surrogate as JSON.stringify escapes it", () => {
    const long = `é日本😀\u2028\u2029\ud800x"\\${"ü".repeat(600)}`;
    const bodies: Record<string, unknown>[] = [
      { prompt: long, grammar: long },
      { "clé": long, "日本": "短い", n: 1 },
      { a: long, b: `${long}2`, c: long },
      { before: "ß", prompt: [1, 2], grammar: `${"\u0000"}${long}` },
    ];
    for (let round = 0; round < 2; round++) {
      for (const body of bodies) {
        const bytes = toJsonBytes(body);
        expect(bytes.equals(Buffer.from(toJson(body) as string, "utf8"))).toBe(true);
        expect(JSON.parse(bytes.toString("utf8"))).toEqual(JSON.parse(toJson(body) as string));
      }
    }
  });
});
