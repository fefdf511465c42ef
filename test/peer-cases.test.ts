/**
 * The 1075 peer test vectors (vLLM, SGLang, llama.cpp, Ollama; fixtures/peer-cases/SOURCES.md) through our parser.
 * Every vector must give its expected calls (names, and argument values compared as parsed JSON), and its
 * content where the vector states it, modulo the conventions SOURCES.md documents (engines that drop,
 * trim or clean text, or keep reasoning in content: we never drop text and we separate reasoning).
 * Vectors we deliberately disagree with are listed, with the reason, in DISAGREEMENTS.md; the suite
 * checks that each listed vector really disagrees, so the list cannot go stale.
 */
import { describe, expect, it } from "vitest";
import { canonicalJson, parsedOrText } from "./helpers/canonical-json.js";
import { expectTextKept } from "./helpers/expect-message.js";
import { peerCases, peerDisagreements } from "./helpers/fixtures.js";
import type { PeerCase } from "./helpers/fixtures.js";
import { parseOneShot } from "./helpers/run-parse.js";
import type { ParseResult } from "../src/types.js";

/** SOURCES.md: the engine's own test drops text after or between calls. We keep it: compare calls only. */
const PEER_DROPS_TEXT = new Set([
  "vllm-deepseek-v3.1-two-calls-prefix-suffix",
  "vllm-glm-4.5-text-between-calls",
  "sglang-harmony-analysis-call-then-final",
]);

/**
 * SOURCES.md: the engine trims whitespace next to the calls, or cleans markup out of the text (citations,
 * a stray `[TOOL_CALLS]`). We keep the model's text: compare calls, and content modulo surrounding
 * whitespace where only trimming happened (`CLEANS` compare calls only).
 */
const PEER_TRIMS_TEXT = new Set([
  "sglang-mistral-text-before",
  "vllm-apertus-text-before",
  "vllm-gemma4-text-before",
  "sglang-lfm2-text-before",
  "sglang-pythonic-python-start-end-text-around",
]);
const PEER_CLEANS_TEXT = new Set(["vllm-mistral-not-json-after-token", "vllm-command-r7b-response-with-citations"]);

/**
 * SOURCES.md: vLLM tool parsers (and llama.cpp with reasoning off) see raw text and leave the think block
 * in content; we move it to reasoning_content. Check that both our parts come from the expected content.
 */
const PEER_KEEPS_REASONING_IN_CONTENT = new Set([
  "vllm-seed-oss-empty-budget-think-then-call",
  "vllm-seed-oss-budget-reflect-think-then-call",
  "vllm-seed-oss-tool-markup-inside-think",
  "vllm-glm-4.5-think-block-in-content",
  "vllm-nemotron-v2-think-block-kept-as-content",
  "llamacpp-deepseek-r1-think-left-in-content",
  "llamacpp-granite-think-response-unparsed",
]);

function run(c: PeerCase): ParseResult {
  return parseOneShot({ format: c.format, request: { tools: c.tools } }, c.completion);
}

/** Names and parsed argument values, in order. Arguments that are not JSON stay as text (and differ). */
function callsOf(result: ParseResult): Array<{ name: string; arguments: unknown }> {
  return (result.message.tool_calls ?? []).map((call) => ({ name: call.function.name, arguments: parsedOrText(call.function.arguments) }));
}

/** Why our content differs from the vector's stated content (undefined: it agrees or is not compared). */
function contentMismatch(c: PeerCase, result: ParseResult): string | undefined {
  const want = c.expected.content;
  if (want === null || PEER_DROPS_TEXT.has(c.id) || PEER_CLEANS_TEXT.has(c.id)) return undefined;
  // "" in a vector means "nothing but call markup"; we say null when there are calls, "" when not.
  const ours = result.message.content ?? "";
  if (PEER_KEEPS_REASONING_IN_CONTENT.has(c.id)) {
    const reasoning = result.message.reasoning_content ?? "";
    if (reasoning === "") return "expected the think block in reasoning_content";
    if (!want.includes(reasoning.trim())) return `reasoning ${JSON.stringify(reasoning)} is not from the stated content`;
    if (!want.includes(ours.trim())) return `content ${JSON.stringify(ours)} is not from the stated content`;
    return undefined;
  }
  if (PEER_TRIMS_TEXT.has(c.id)) return ours.trim() === want.trim() ? undefined : `content ${JSON.stringify(ours)}`;
  return ours === want ? undefined : `content ${JSON.stringify(ours)}, stated ${JSON.stringify(want)}`;
}

/** Every way our result differs from the vector, as text (empty: we agree). */
function disagreement(c: PeerCase, result: ParseResult): string[] {
  const out: string[] = [];
  const ours = callsOf(result);
  if (canonicalJson(ours) !== canonicalJson(c.expected.calls)) {
    out.push(`calls ${JSON.stringify(ours)}, stated ${JSON.stringify(c.expected.calls)}`);
  }
  const content = contentMismatch(c, result);
  if (content !== undefined) out.push(content);
  return out;
}

const cases = peerCases();
const disagreements = peerDisagreements();

describe("peer vectors", () => {
  it("has all 1075 vectors, with unique ids", () => {
    expect(cases.length).toBe(1075);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it("lists only vectors that exist in DISAGREEMENTS.md", () => {
    const ids = new Set(cases.map((c) => c.id));
    expect([...disagreements.keys()].filter((id) => !ids.has(id))).toEqual([]);
  });

  describe.each([...new Set(cases.map((c) => c.format))].sort())("%s", (format) => {
    for (const c of cases.filter((x) => x.format === format)) {
      const reason = disagreements.get(c.id);
      if (reason === undefined) {
        it(c.id, () => {
          const result = run(c);
          expect(disagreement(c, result), c.source).toEqual([]);
          expectTextKept(result, c.id);
        });
      } else {
        it(`${c.id} (listed disagreement: must still disagree)`, () => {
          const found = disagreement(c, run(c));
          expect(found.length, `${c.id} agrees now: remove it from DISAGREEMENTS.md`).toBeGreaterThan(0);
        });
      }
    }
  });
});
