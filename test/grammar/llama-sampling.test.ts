/**
 * Sampling on llama.cpp itself (node-llama-cpp 3.21.1, CPU) under chatwire's grammar, with tools whose
 * schemas use minimum, maximum, maxLength and pattern. The model is a one-layer Llama with random
 * weights over the fixture byte-level BPE vocabulary (written here as a GGUF): it writes arbitrary
 * tokens, so whether a call validates depends on the grammar alone. Each completion goes through
 * parseCompletion, which validates every call against the full schema; >= 95% must come out as a
 * valid call (the rest would be the keywords docs/server.md names as not enforced). Measured: 40 of 40
 * in each of hermes, qwen3-coder, kimi-k3, minimax-m3 and harmony; 0 of 40 (hermes, qwen3-coder) with the grammar
 * before it enforced these keywords.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaCompletion, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFormat } from "../../src/formats/index.js";
import type { FormatDescription, FormatId } from "../../src/formats/types.js";
import { buildGbnf } from "../../src/grammar/index.js";
import { parseCompletion } from "../../src/parse/index.js";
import { randomLlamaFile } from "../helpers/random-llama.js";
import { KEYWORD_TOOLS as TOOLS } from "./tools.js";

const REQUEST = { messages: [{ role: "user", content: "Set it up." }], tools: TOOLS, tool_choice: "required", parallel_tool_calls: false };
const SAMPLES = Number(process.env.LLAMA_SAMPLES ?? 40);

const dir = mkdtempSync(join(tmpdir(), "chatwire-random-llama-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let model: LlamaModel;
beforeAll(async () => {
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
  model = await llama.loadModel({ modelPath: randomLlamaFile(dir).file });
}, 120_000);

/**
 * Samples SAMPLES completions of `prompt` under `grammarText` (seeded) and expects >= 95% to parse into
 * exactly one valid call with no error; the failures are the message.
 */
async function expectValidCalls(grammarText: string, prompt: string, format: FormatDescription, promptSuffix?: string): Promise<void> {
  const grammar = await model.llama.createGrammar({ grammar: grammarText });
  // One thread: the model is tiny, and spinning threads on a loaded machine cost more than they give.
  const context = await model.createContext({ contextSize: 1024, threads: 1 });
  try {
    let valid = 0;
    const failures: string[] = [];
    for (let n = 0; n < SAMPLES; n++) {
      const sequence = context.getSequence();
      const completion = new LlamaCompletion({ contextSequence: sequence });
      const text = await completion.generateCompletion(prompt, { grammar, maxTokens: 800, temperature: 1, seed: 1000 + n });
      sequence.dispose();
      const got = parseCompletion(format, text, REQUEST, promptSuffix === undefined ? {} : { promptSuffix });
      if ((got.message.tool_calls ?? []).length === 1 && got.errors.length === 0) valid++;
      else failures.push(`${JSON.stringify(text)}: ${JSON.stringify(got.errors)}`);
    }
    expect(valid / SAMPLES, failures.join("\n")).toBeGreaterThanOrEqual(0.95);
  } finally {
    await context.dispose();
  }
}

describe("a random-weight model on llama.cpp writes valid calls under the grammar", () => {
  // JSON arguments, tagged raw values, and the XML-element leaves of the two xml-calls formats.
  for (const id of ["hermes", "qwen3-coder", "kimi-k3", "minimax-m3"] as FormatId[]) {
    it(`${id}: minimum, maximum, maxLength and pattern hold in >= 95% of ${SAMPLES} sampled calls`, async () => {
      // A random model's free text never ends (it would not write `</think>`), so the format's
      // reasoning block is left out, as a template with thinking off renders it: only calls remain.
      const format: FormatDescription = { ...getFormat(id), reasoning: [] };
      const grammarText = buildGbnf(format, REQUEST);
      // The keywords of these tools are all enforced.
      expect(grammarText).not.toMatch(/^# relaxed/m);
      await expectValidCalls(grammarText, "<|im_start|>user\nSet it up.<|im_end|>\n<|im_start|>assistant\n", format);
    }, 300_000);
  }

  it(`harmony (channel messages after gpt-oss's \`<|start|>assistant\`): the same in >= 95% of ${SAMPLES} sampled calls`, async () => {
    // Without an analysis header to write (a random model's analysis never ends), the grammar's only
    // message is the call: `<|channel|>commentary to=functions.f <|constrain|>json<|message|>{...}`.
    const harmony = getFormat("harmony");
    const format: FormatDescription = { ...harmony, channels: { ...harmony.channels!, headers: harmony.channels!.headers.filter((h) => !h.includes("analysis")) } };
    const promptSuffix = "<|start|>assistant";
    const grammarText = buildGbnf(format, REQUEST, { promptSuffix });
    expect(grammarText).not.toMatch(/^# relaxed/m);
    expect(grammarText).not.toMatch(/analysis/);
    await expectValidCalls(grammarText, `<|start|>user<|message|>Set it up.<|end|>${promptSuffix}`, format, promptSuffix);
  }, 300_000);
});
