/**
 * `reasoningCalls` (issue 18, kind 7): a call written inside a reasoning block is a call ("call", the
 * default) or reasoning text ("text"). Each case runs one-shot and at every split (the tester); the
 * peers' vectors for calls inside reasoning, which we list as disagreements under the default, must agree
 * under "text" (vLLM, llama.cpp and Ollama all leave such calls in the reasoning).
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { createStreamParser, foldDeltas, parseCompletion } from "../../src/parse/index.js";
import { loadTemplate } from "../../src/template/index.js";
import type { ParseOptions } from "../../src/parse/index.js";
import { canonicalJson, parsedOrText } from "../helpers/canonical-json.js";
import { expectTextKept } from "../helpers/expect-message.js";
import { peerCases, peerDisagreements } from "../helpers/fixtures.js";
import { parseOneShot } from "../helpers/run-parse.js";
import type { RunSpec } from "../helpers/run-parse.js";
import { expectTwoPushSplitsEqualOneShot } from "../helpers/split-checks.js";
import { tester } from "../helpers/tester.js";

const REHEARSED =
  '<think>I will call <tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call> now.</think>\n\n' +
  '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call>';
const OSLO = { name: "get_weather", arguments: { city: "Oslo" } };

describe("reasoningCalls", () => {
  it('"call" (the default): a call rehearsed in reasoning and then made is two calls', () => {
    const want = { content: null, reasoning_content: "I will call  now.", tool_calls: [OSLO, OSLO] };
    tester("hermes").test(REHEARSED).expect(want);
    tester("hermes").reasoningCalls("call").test(REHEARSED).expect(want);
  });

  it('"text": the rehearsal stays reasoning, exactly as written; the call after it is the one call', () => {
    tester("hermes")
      .reasoningCalls("text")
      .test(REHEARSED)
      .expect({ content: null, reasoning_content: 'I will call <tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n</tool_call> now.', tool_calls: [OSLO] });
  });

  it('"text": a reasoning block the prompt opened holds the call until its end marker', () => {
    tester("hermes")
      .reasoningCalls("text")
      .promptSuffix("<|im_start|>assistant\n<think>\n")
      .test('Plan: <tool_call>{"name": "f", "arguments": {}}</tool_call>\n</think>\n\n<tool_call>{"name": "g", "arguments": {}}</tool_call>')
      .expect({ content: null, reasoning_content: 'Plan: <tool_call>{"name": "f", "arguments": {}}</tool_call>\n', tool_calls: [{ name: "g", arguments: {} }] });
  });

  it('"text": a reasoning block that never ends keeps its call as reasoning (the cost of "text")', () => {
    // Qwen3.5 may call without closing </think> (llama.cpp #21118): under "text" there is no call.
    tester("qwen3-coder")
      .reasoningCalls("text")
      .promptSuffix("<think>\n")
      .test("Let me look.\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>")
      .expect({ content: "", reasoning_content: "Let me look.\n<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>" });
  });

  it('"text": a call section inside reasoning (Kimi K2 Thinking) is reasoning text too', () => {
    const section = "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>";
    tester("kimi-k2").reasoningCalls("text").test(`<think>x ${section}</think>`).expect({ content: "", reasoning_content: `x ${section}` });
    tester("kimi-k2").test(`<think>x ${section}</think>`).expect({ content: null, reasoning_content: "x ", tool_calls: [{ name: "f", arguments: {}, id: "functions.f:0" }] });
  });

  it('"text" changes nothing outside reasoning, and a channel message to a tool is a call in either mode', () => {
    tester("hermes").reasoningCalls("text").test('<tool_call>{"name": "f", "arguments": {}}</tool_call>').expect({ content: null, tool_calls: [{ name: "f", arguments: {} }] });
    tester("harmony")
      .reasoningCalls("text")
      .test('<|channel|>analysis<|message|>Need Oslo weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>')
      .expect({ content: null, reasoning_content: "Need Oslo weather.", tool_calls: [OSLO] });
  });

  it("ChatTemplate.parse and streamParser take it too", async () => {
    const template = await loadTemplate("qwen3");
    const request = { messages: [{ role: "user", content: "weather?" }], tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }] };
    const ids = () => "call_000000000000000000000001";
    expect(template.parse(REHEARSED, request, { idGenerator: ids }).message.tool_calls).toHaveLength(2);
    const oneShot = template.parse(REHEARSED, request, { reasoningCalls: "text", idGenerator: ids });
    expect(oneShot.message.tool_calls).toHaveLength(1);
    const parser = template.streamParser(request, { reasoningCalls: "text", idGenerator: ids });
    const deltas = [...REHEARSED].flatMap((ch) => parser.push(ch)).concat(parser.end());
    expect(foldDeltas(deltas)).toEqual(oneShot);
  });

  it("an unknown value is refused by name", () => {
    const bad = { reasoningCalls: "ignore" } as unknown as ParseOptions;
    expect(() => createStreamParser("hermes", undefined, bad)).toThrow(ChatwireError);
    expect(() => parseCompletion("hermes", "x", undefined, bad)).toThrow(/reasoningCalls: must be "call" or "text", got "ignore"/);
  });
});

/**
 * The listed disagreements whose reason is a call inside reasoning, with the prompt suffix that opened
 * the reasoning where the vector's output holds only its end marker.
 */
const PEERS_LEAVING_CALLS_IN_REASONING: Record<string, string | undefined> = {
  "vllm-minimax-m1-calls-in-thinking-ignored": undefined,
  "ollama-minimax-m2-tool-call-inside-think-tag-should-treat-as-thinking": undefined,
  "llamacpp-ministral3-peg-call-marker-in-reasoning": undefined,
  "llamacpp-lfm25-peg-call-marker-in-reasoning": undefined,
  "llamacpp-reka-edge-peg-call-marker-in-reasoning": "<think>\n",
  "llamacpp-muse-glimmer-peg-markup-in-analysis": undefined,
  "vllm-seed-oss-tool-markup-inside-think": undefined,
};

describe('peers leave calls inside reasoning as reasoning: under "text" we agree', () => {
  const cases = peerCases();
  const listed = peerDisagreements();
  for (const [id, promptSuffix] of Object.entries(PEERS_LEAVING_CALLS_IN_REASONING)) {
    it(id, () => {
      expect(listed.has(id), `${id} is a listed disagreement under the default`).toBe(true);
      const c = cases.find((x) => x.id === id)!;
      const spec: RunSpec = { format: c.format, request: { tools: c.tools }, reasoningCalls: "text" };
      if (promptSuffix !== undefined) spec.promptSuffix = promptSuffix;
      const result = parseOneShot(spec, c.completion);
      const calls = (result.message.tool_calls ?? []).map((t) => ({ name: t.function.name, arguments: parsedOrText(t.function.arguments) }));
      expect(canonicalJson(calls)).toBe(canonicalJson(c.expected.calls));
      expectTextKept(result, id);
      expectTwoPushSplitsEqualOneShot(spec, c.completion, result, 400);
    });
  }
});
