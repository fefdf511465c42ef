/**
 * The parse engine's own contract: hold-back and release of partial markers, calls opened as soon as
 * their name is known, failures after opening reported by index and dropped by foldDeltas, the
 * whitespace rule, prompt suffixes, tool_choice, and linear work per push.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { MarkerSet } from "../../src/parse/lexer.js";
import { createStreamParser, foldDeltas, parseCompletion } from "../../src/parse/index.js";
import type { Delta } from "../../src/types.js";

function ids(): () => string {
  let n = 0;
  return () => `call_${String(++n).padStart(24, "0")}`;
}

const WEATHER = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false },
  },
};
const request = (extra: Record<string, unknown> = {}) => ({ messages: [], tools: [WEATHER], ...extra });

function text(deltas: Delta[], key: "content" | "reasoning_content" = "content"): string {
  return deltas.map((d) => d[key] ?? "").join("");
}

describe("MarkerSet", () => {
  const set = new MarkerSet(["<tool_call>", "</tool_call>", "<tool"]);
  it("finds the longest complete marker at the first position", () => {
    expect(set.scan("ab<tool_call>x", 0)).toEqual({ kind: "marker", index: 2, marker: "<tool_call>" });
  });
  it("holds back a suffix that may still grow into a longer marker", () => {
    expect(set.scan("ab<tool_ca", 0)).toEqual({ kind: "hold", index: 2 });
    expect(set.scan("ab<tool", 0)).toEqual({ kind: "hold", index: 2 });
  });
  it("takes the shorter marker once the longer one is impossible", () => {
    expect(set.scan("ab<tool_x", 0)).toEqual({ kind: "marker", index: 2, marker: "<tool" });
  });
  it("holds nothing at the end of the output", () => {
    expect(set.scan("ab<tool_ca", 0, true)).toEqual({ kind: "marker", index: 2, marker: "<tool" });
    expect(new MarkerSet(["<tool_call>"]).scan("ab<tool_ca", 0, true)).toEqual({ kind: "none" });
  });
  it("starts at `from` and reports none when nothing can match", () => {
    expect(set.scan("<tool_call> plain", 11)).toEqual({ kind: "none" });
  });
  it("tailStart finds the tail scan holds, looking only at the last characters", () => {
    expect(set.tailStart("code </tool_c")).toBe(5);
    expect(set.tailStart("x < y <")).toBe(6);
    expect(set.tailStart("x <tool_x")).toBe(-1);
    expect(set.tailStart("no tag")).toBe(-1);
    // `<</` : the first `<` cannot start a marker any more, the second may.
    expect(set.tailStart("a<</")).toBe(2);
    // Markers with different first characters (no common one to search for).
    const mixed = new MarkerSet(["[TOOL_CALLS]", "<|call|>"]);
    expect(mixed.tailStart("text [TOOL_")).toBe(5);
    expect(mixed.tailStart("text <|ca")).toBe(5);
    expect(mixed.tailStart("text [T]")).toBe(-1);
    // Against scan, on every cut of texts without a complete marker.
    for (const t of ["a </tool_call", "<<tool_ca", "x</</tool", "[TOOL_CA <|c", "plain text"]) {
      for (let n = 0; n <= t.length; n++) {
        const cut = t.slice(0, n);
        for (const s of [set, mixed]) {
          const hit = s.scan(cut, 0);
          if (hit.kind === "marker") continue;
          expect(s.tailStart(cut), JSON.stringify(cut)).toBe(hit.kind === "hold" ? hit.index : -1);
        }
      }
    }
  });
});

describe("hold-back and release", () => {
  it("never shows a partial marker, and shows it once it is prose", () => {
    const p = createStreamParser("hermes");
    expect(text(p.push("Hello <tool_c"))).toBe("Hello ");
    expect(text(p.push("ar is not a tag"))).toBe("<tool_car is not a tag");
    const last = p.end();
    expect(last.at(-1)).toEqual({ finish_reason: "stop" });
  });
  it("releases a held prefix at the end of the output", () => {
    const p = createStreamParser("hermes");
    expect(text(p.push("Done <tool_"))).toBe("Done ");
    expect(text(p.end())).toBe("<tool_");
  });
  it("holds only the live markers of the current state", () => {
    // `</think>` is not live in content, so its prefix is shown at once.
    const p = createStreamParser("hermes");
    expect(text(p.push("a </thi"))).toBe("a </thi");
  });
});

describe("calls", () => {
  it("opens a call as soon as its name is known and streams the model's argument bytes", () => {
    const p = createStreamParser("hermes", request(), { idGenerator: ids() });
    const first = p.push('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Pa');
    expect(first).toEqual([
      { tool_calls: [{ index: 0, id: "call_000000000000000000000001", type: "function", function: { name: "get_weather", arguments: "" } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city": "Pa' } }] },
    ]);
    expect(p.push('ris"}}\n</tool_call>')).toEqual([{ tool_calls: [{ index: 0, function: { arguments: 'ris"}' } }] }]);
    expect(p.end()).toEqual([{ finish_reason: "tool_calls" }]);
  });

  it("waits for the name when the arguments come first, then sends them at once", () => {
    const p = createStreamParser("hermes", undefined, { idGenerator: ids() });
    expect(p.push('<tool_call>{"arguments": {"q": "深圳"}, ')).toEqual([]);
    const named = p.push('"name": "search"}</tool_call>');
    expect(named[0]?.tool_calls?.[0]?.function.name).toBe("search");
    expect(foldDeltas([...named, ...p.end()]).message.tool_calls?.[0]?.function.arguments).toBe('{"q": "深圳"}');
  });

  it("reports a call that fails after it was streamed by its index; foldDeltas drops it and keeps its text", () => {
    const p = createStreamParser("hermes", request(), { idGenerator: ids() });
    const raw = '<tool_call>{"name": "get_weather", "arguments": {"town": "Oslo"}}</tool_call>';
    const deltas = [...p.push(`Checking. ${raw}`), ...p.end()];
    expect(deltas.some((d) => d.tool_calls?.[0]?.function.name === "get_weather")).toBe(true);
    const last = deltas.at(-1)!;
    expect(last.finish_reason).toBe("stop");
    expect(last.errors).toEqual([expect.objectContaining({ type: "invalid_arguments", index: 0, name: "get_weather", text: raw })]);
    const folded = foldDeltas(deltas);
    expect(folded.message).toEqual({ role: "assistant", content: `Checking. ${raw}` });
    expect(folded.errors[0]).not.toHaveProperty("index");
  });

  it("does not open a call to an undeclared tool: its text is content and the error says unknown_tool", () => {
    const raw = '<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>';
    const p = createStreamParser("hermes", request());
    const deltas = [...p.push(raw), ...p.end()];
    expect(deltas.some((d) => d.tool_calls)).toBe(false);
    const r = foldDeltas(deltas);
    expect(r.message.content).toBe(raw);
    expect(r.errors).toEqual([expect.objectContaining({ type: "unknown_tool", name: "rm_rf", text: raw })]);
  });

  it("accepts any name without declared tools, checking only that arguments are an object", () => {
    const r = parseCompletion("hermes", '<tool_call>{"name": "x", "arguments": [1]}</tool_call><tool_call>{"name": "y", "arguments": {}}</tool_call>');
    expect(r.message.tool_calls?.map((c) => c.function.name)).toEqual(["y"]);
    expect(r.errors).toEqual([expect.objectContaining({ type: "invalid_arguments", name: "x" })]);
  });

  it("decodes arguments written as a JSON string holding the object (Granite 4)", () => {
    const r = parseCompletion("hermes", '<tool_call>{"name": "get_weather", "arguments": "{\\"city\\": \\"Zürich\\"}"}</tool_call>', request());
    expect(r.message.tool_calls?.[0]?.function.arguments).toBe('{"city": "Zürich"}');
  });

  it("keeps the text of a call cut off by the end of the output and reports it truncated", () => {
    const raw = '<tool_call>{"name": "get_weather", "arguments": {"city": "Par';
    const r = parseCompletion("hermes", raw, request());
    expect(r.message.content).toBe(raw);
    expect(r.errors).toEqual([expect.objectContaining({ type: "truncated", name: "get_weather" })]);
    expect(r.finish_reason).toBe("stop");
  });

  it("accepts a call that only misses its final brace at the end of the output", () => {
    const r = parseCompletion("hermes", '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}', request());
    expect(r.message.tool_calls?.[0]?.function.arguments).toBe('{"city": "Paris"}');
  });

  it("treats prose that mentions the marker as content, with no error", () => {
    const prose = "Wrap calls in <tool_call> tags, e.g. <tool_call>here</tool_call>.";
    const r = parseCompletion("hermes", prose);
    expect(r).toEqual({ message: { role: "assistant", content: prose }, finish_reason: "stop", errors: [] });
  });
});

describe("text and reasoning", () => {
  it("drops whitespace-only runs between calls and at the ends, keeps other text verbatim", () => {
    const call = (c: string) => `<tool_call>{"name": "get_weather", "arguments": {"city": "${c}"}}</tool_call>`;
    const r = parseCompletion("hermes", `\n${call("A")}\n\n${call("B")}\n`, request());
    expect(r.message.content).toBeNull();
    expect(parseCompletion("hermes", `Hi\n${call("A")}\nBye `, request()).message.content).toBe("Hi\n\nBye ");
  });

  it("starts in reasoning when the prompt suffix opened a block", () => {
    const r = parseCompletion("hermes", "Let me think.\n</think>\n\nAnswer.", undefined, { promptSuffix: "<|im_start|>assistant\n<think>\n" });
    expect(r.message).toEqual({ role: "assistant", content: "\n\nAnswer.", reasoning_content: "Let me think.\n" });
  });

  it("drops an opening marker the model repeats after the prompt opened the block", () => {
    const r = parseCompletion("deepseek-r1", "<think>\nHmm.</think>Hi", undefined, { promptSuffix: "<｜Assistant｜><think>\n" });
    expect(r.message).toEqual({ role: "assistant", content: "Hi", reasoning_content: "\nHmm." });
    expect(parseCompletion("hermes", "<think>a <think> b</think>").message.reasoning_content).toBe("a <think> b");
  });

  it("does not start in reasoning when the suffix closed its block", () => {
    const r = parseCompletion("hermes", "Answer.", undefined, { promptSuffix: "<think>\n\n</think>\n\n" });
    expect(r.message).toEqual({ role: "assistant", content: "Answer." });
  });

  it("treats calls written inside reasoning as calls", () => {
    const r = parseCompletion(
      "hermes",
      '<think>I need the weather.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Rome"}}</tool_call>\n</think>',
      request(),
    );
    expect(r.message.tool_calls).toHaveLength(1);
    expect(r.message.reasoning_content).toBe("I need the weather.\n\n");
    expect(r.message.content).toBeNull();
  });

  it("gives content \"\" without calls and null with calls when there is no text", () => {
    expect(parseCompletion("hermes", "").message).toEqual({ role: "assistant", content: "" });
    expect(parseCompletion("hermes", '<tool_call>{"name": "f", "arguments": {}}</tool_call>').message.content).toBeNull();
  });
});

describe("tool_choice", () => {
  const call = '<tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}}</tool_call>';
  it("none: calls are not opened", () => {
    const r = parseCompletion("hermes", call, request({ tool_choice: "none" }));
    expect(r.message.content).toBe(call);
    expect(r.errors.map((e) => e.type)).toEqual(["tool_choice"]);
  });
  it("required: an answer without a valid call is reported, the message unchanged", () => {
    const r = parseCompletion("hermes", "No.", request({ tool_choice: "required" }));
    expect(r.message.content).toBe("No.");
    expect(r.errors.map((e) => e.type)).toEqual(["tool_choice"]);
  });
});

describe("the API", () => {
  it("throws ChatwireError for an unknown format and for a malformed request, never for output", () => {
    expect(() => createStreamParser("nope" as never)).toThrow(ChatwireError);
    expect(() => createStreamParser("hermes", { messages: [], tools: "x" })).toThrow(ChatwireError);
    expect(() => parseCompletion("hermes", "<tool_call>\u0000{]}</tool_call><think>")).not.toThrow();
  });
  it("puts finish_reason on the last delta of end(), once", () => {
    const p = createStreamParser("hermes");
    p.push("Hi");
    expect(p.end()).toEqual([{ finish_reason: "stop" }]);
    expect(p.end()).toEqual([]);
    expect(p.push("more")).toEqual([]);
  });
  it("makes ids in the format's style", () => {
    const openai = parseCompletion("hermes", '<tool_call>{"name": "f", "arguments": {}}</tool_call>');
    expect(openai.message.tool_calls?.[0]?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    const mistral = parseCompletion("mistral", '[TOOL_CALLS]f[ARGS]{}');
    expect(mistral.message.tool_calls?.[0]?.id).toMatch(/^[A-Za-z0-9]{9}$/);
    const injected = parseCompletion("mistral", '[TOOL_CALLS]f[ARGS]{}', undefined, { idGenerator: ids() });
    expect(injected.message.tool_calls?.[0]?.id).toBe("000000001");
  });
});

describe("linear work", () => {
  afterEach(() => vi.restoreAllMocks());

  it("scans only the pushed text plus a held tail shorter than the longest marker", () => {
    const scanned: number[] = [];
    const original = MarkerSet.prototype.scan;
    vi.spyOn(MarkerSet.prototype, "scan").mockImplementation(function (this: MarkerSet, t: string, from: number, final?: boolean) {
      scanned.push(t.length - from);
      return original.call(this, t, from, final);
    });
    const body = "x".repeat(5000);
    const completion = `Intro <b>. <tool_call>{"name": "w", "arguments": {"s": "${body}"}}</tool_call> then <tool_call>{"name": "w", "arguments": {}}</tool_call>`;
    const p = createStreamParser("hermes");
    for (let i = 0; i < completion.length; i += 7) p.push(completion.slice(i, i + 7));
    p.end();
    expect(Math.max(...scanned)).toBeLessThanOrEqual(7 + "</tool_call>".length);
  });

  it("parses a 1 MB completion with 50 calls, one-shot and in 4 KB deltas, with equal results", () => {
    let completion = "";
    for (let i = 0; i < 50; i++) completion += `Step ${i}.\n<tool_call>\n{"name": "write", "arguments": {"text": "${"y".repeat(20000)}"}}\n</tool_call>\n`;
    expect(completion.length).toBeGreaterThan(1_000_000);
    const oneShot = parseCompletion("hermes", completion, undefined, { idGenerator: ids() });
    expect(oneShot.message.tool_calls).toHaveLength(50);
    const p = createStreamParser("hermes", undefined, { idGenerator: ids() });
    const deltas: Delta[] = [];
    for (let i = 0; i < completion.length; i += 4096) deltas.push(...p.push(completion.slice(i, i + 4096)));
    deltas.push(...p.end());
    expect(foldDeltas(deltas)).toEqual(oneShot);
  });
});
