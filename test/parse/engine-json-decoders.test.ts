/**
 * The JSON payload decoders on their own (no engine, so they keep their own copy of the text):
 * events do not depend on how the payload is split, and argument fragments add up to `arguments`.
 */
import { describe, expect, it } from "vitest";
import type { CompiledTolerances } from "../../src/parse/compile-tolerances.js";
import { NO_TOLERANCES } from "../../src/parse/compile-tolerances.js";
import type { DecoderEvent, DecoderFactory } from "../../src/parse/decoder.js";
import { headerArgs } from "../../src/parse/decoders/header-args.js";
import { jsonArgs } from "../../src/parse/decoders/json-args.js";
import { jsonCalls } from "../../src/parse/decoders/json-calls.js";

/** Runs a decoder over `pieces`; merges adjacent args events so different splits compare equal. */
function run(factory: DecoderFactory, pieces: string[], closed = true, selfClosing = false): DecoderEvent[] {
  const d = factory({ toolSchema: () => undefined, selfClosing });
  const events: DecoderEvent[] = [];
  let close: Extract<DecoderEvent, { kind: "close" }> | undefined;
  for (const piece of pieces) {
    // After `close` the engine reads the rest itself; the decoder gets nothing more.
    if (close) close.rest += piece;
    else events.push(...d.push(piece));
    close = events.find((e): e is Extract<DecoderEvent, { kind: "close" }> => e.kind === "close");
  }
  if (!close) events.push(...d.end(closed));
  const merged: DecoderEvent[] = [];
  for (const e of events) {
    const last = merged.at(-1);
    if (e.kind === "args" && last?.kind === "args") last.text += e.text;
    else merged.push({ ...e });
  }
  return merged;
}

function everySplit(factory: DecoderFactory, text: string, selfClosing = false): DecoderEvent[] {
  const whole = run(factory, [text], true, selfClosing);
  for (let cut = 1; cut < text.length; cut++) {
    expect(run(factory, [text.slice(0, cut), text.slice(cut)], true, selfClosing), `cut at ${cut}`).toEqual(whole);
  }
  expect(run(factory, [...text], true, selfClosing), "one character at a time").toEqual(whole);
  return whole;
}

function argsAddUp(events: DecoderEvent[]): void {
  let args = "";
  for (const e of events) {
    if (e.kind === "call") args = "";
    if (e.kind === "args") args += e.text;
    if (e.kind === "done") expect(args).toBe(e.arguments);
  }
}

describe("jsonCalls", () => {
  it("a name that is no JSON string makes the object no call (a later name key does not take over and drop it)", () => {
    const events = everySplit(jsonCalls(), '{"name": "a\\q", "name": "f", "arguments": {}}');
    expect(events.map((e) => e.kind)).toEqual(["fail"]);
    expect(events[0]).toMatchObject({ type: "malformed", message: 'the value of "name" in the call object is not a JSON string' });
  });

  it("an array of calls with swapped keys, ids and string-encoded arguments", () => {
    const text = ' [{"arguments": {"a": "x}]"}, "name": "f", "id": "abc123XYZ"}, {"name": "g", "arguments": "{\\"b\\": 2}"}] ';
    // String-encoded arguments are a repair the family must tolerate (hermes does: Granite 4).
    const strings: CompiledTolerances = { ...NO_TOLERANCES, keyAliases: { nameKeys: [], argsKeys: [], argsAsString: true } };
    const events = everySplit((ctx) => jsonCalls({ idKeys: ["id"] })({ ...ctx, tolerances: strings }), text);
    argsAddUp(events);
    expect(events.filter((e) => e.kind === "repaired")).toEqual([{ kind: "repaired", repair: "key-alias", message: "arguments written as a JSON string holding the object, read as the object", text: '"{\\"b\\": 2}"' }]);
    // Without the tolerance the string stays a string (not an arguments object).
    const plain = everySplit(jsonCalls({ idKeys: ["id"] }), text).filter((e) => e.kind === "done");
    expect(plain.map((e) => (e as { value: unknown }).value)).toEqual([{ a: "x}]" }, '{"b": 2}']);
    expect(events.filter((e) => e.kind === "call")).toEqual([
      { kind: "call", name: "f", id: "abc123XYZ" },
      { kind: "call", name: "g" },
    ]);
    expect(events.filter((e) => e.kind === "done").map((e) => (e as { value: unknown }).value)).toEqual([{ a: "x}]" }, { b: 2 }]);
  });

  it("name-as-key objects (Apertus)", () => {
    const events = everySplit(jsonCalls({ nameIsKey: true }), '[{"f": {"x": [1, {"y": "}"}]}}]');
    argsAddUp(events);
    expect(events.map((e) => e.kind)).toEqual(["call", "args", "done"]);
  });

  it("a self-closing sequence hands back the text after the last call", () => {
    const events = everySplit(jsonCalls({ sequence: true, argsKeys: ["parameters"] }), '{"name": "f", "parameters": {}}; {"name": "g", "parameters": {"k": 1}} then prose', true);
    expect(events.at(-1)).toEqual({ kind: "close", rest: " then prose" });
    expect(events.filter((e) => e.kind === "done")).toHaveLength(2);
  });

  it("text that does not start like JSON is not a call: close, no failure", () => {
    expect(run(jsonCalls(), [" tags, like this"])).toEqual([{ kind: "close", rest: "tags, like this" }]);
  });

  it("a cut-off call fails as truncated with its text", () => {
    const events = run(jsonCalls(), ['{"name": "f", "arguments": {"a": "unfinis'], false);
    expect(events.at(-1)).toMatchObject({ kind: "fail", type: "truncated", name: "f", raw: '{"name": "f", "arguments": {"a": "unfinis' });
  });
});

describe("jsonArgs and headerArgs", () => {
  it("a fenced value (DeepSeek R1) streams the value's bytes only", () => {
    const events = everySplit(jsonArgs({ fence: true }), '\n```json\n{"city": "東京"}\n```');
    argsAddUp(events);
    expect(events.at(-1)).toEqual({ kind: "done", arguments: '{"city": "東京"}', value: { city: "東京" } });
  });

  it("a Kimi-style header gives the name and the id", () => {
    const factory = headerArgs({
      headerEnd: ["<|tool_call_argument_begin|>"],
      parseHeader: (h) => ({ name: h.trim().replace(/^functions\.|:\d+$/g, ""), id: h.trim() }),
    });
    const events = everySplit(factory, 'functions.get_weather:7<|tool_call_argument_begin|>{"city": "Paris"}');
    expect(events[0]).toEqual({ kind: "call", name: "get_weather", id: "functions.get_weather:7" });
    argsAddUp(events);
  });

  it("raw text arguments (harmony) are trimmed and kept whole", () => {
    const events = everySplit(jsonArgs({ rawText: true }), " plain words \n");
    expect(events).toEqual([
      { kind: "args", text: "plain words" },
      { kind: "done", arguments: "plain words", value: "plain words" },
    ]);
  });
});
