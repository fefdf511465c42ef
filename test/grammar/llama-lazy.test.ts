/**
 * The lazy grammar on llama.cpp itself (node-llama-cpp 3.21.1, CPU) with a random-weight one-layer
 * Llama (test/helpers/random-llama.ts) whose vocabulary has the format's markers as tokens.
 * node-llama-cpp has no lazy grammar (no grammar_lazy / triggers in its API), so the trigger is
 * emulated as llama.cpp's sampler runs it (test/helpers/lazy-trigger.ts): until it fires no grammar is
 * installed (llama.cpp's grammar sampler returns without masking while awaiting a trigger); then a
 * grammar state is created, fed the trigger's text, and constrains every later token. Per seed:
 * - prose: the same seed gives exactly the same tokens as sampling with no grammar at all, up to and
 *   including the trigger;
 * - calls: from the trigger on the output follows the grammar, and the completion parses into one
 *   call that validates (>= 95%; with no grammar after the same prefix, far fewer do).
 * The model is nudged (a logit bias) towards the trigger after some prose, or it would never write one.
 * Measured: 20 of 20 seeds fired and gave a valid call in both cases, 0 of 20 without the grammar.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaGrammarEvaluationState, TokenBias, type LlamaGrammar, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getFormat } from "../../src/formats/index.js";
import type { FormatDescription } from "../../src/formats/types.js";
import { buildLazyGbnf } from "../../src/grammar/index.js";
import { parseCompletion } from "../../src/parse/index.js";
import type { GrammarTrigger } from "../../src/server/backends/types.js";
import { LazyTriggerState } from "../helpers/lazy-trigger.js";
import { randomLlamaFile, type RandomLlama } from "../helpers/random-llama.js";
import { KEYWORD_TOOLS } from "./tools.js";

const SAMPLES = Number(process.env.LLAMA_SAMPLES ?? 20);
// `<think>` is left out: a random model would open a second reasoning block, where no trigger fires.
const MARKERS = ["<tool_call>", "</tool_call>", "</think>"];
const REQUEST = { messages: [{ role: "user", content: "Set it up." }], tools: KEYWORD_TOOLS, parallel_tool_calls: false };
const PROSE_TOKENS = 12;

const dir = mkdtempSync(join(tmpdir(), "chatwire-lazy-llama-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let model: LlamaModel;
let vocab: RandomLlama;
beforeAll(async () => {
  vocab = randomLlamaFile(dir, MARKERS);
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
  model = await llama.loadModel({ modelPath: vocab.file });
}, 120_000);

/** node-llama-cpp's own step that feeds a token to a grammar state (LlamaSampler's, not exported). */
function acceptToken(state: LlamaGrammarEvaluationState, token: Token): void {
  const bindings = (model.llama as unknown as { _bindings: { AddonSampler: { acceptGrammarEvaluationStateToken(s: unknown, t: Token): void } } })._bindings;
  bindings.AddonSampler.acceptGrammarEvaluationStateToken((state as unknown as { _state: unknown })._state, token);
}

interface Run {
  tokens: Token[];
  text: string;
  /** Index of the token on which the trigger fired. */
  firedAt: number | undefined;
}

/**
 * Samples up to `max` tokens with `seed`. With `grammar`, the grammar is installed once the trigger
 * fires; without, the trigger is only watched (the bias towards it stops at the same point).
 */
async function sample(prompt: Token[], seed: number, triggers: readonly GrammarTrigger[], bias: readonly string[], max: number, grammar?: LlamaGrammar): Promise<Run> {
  const context = await model.createContext({ contextSize: 1024, threads: 1 });
  try {
    const sequence = context.getSequence();
    const trigger = new LazyTriggerState(triggers);
    // After some prose, a push towards the markers that lead to a call.
    const nudge = new TokenBias(model.tokenizer);
    for (const m of bias) nudge.set(model.tokenize(m, true), { logit: 2.5 });
    const none = new TokenBias(model.tokenizer);
    let state: LlamaGrammarEvaluationState | undefined;
    const run: Run = { tokens: [], text: "", firedAt: undefined };
    const options = {
      temperature: 1,
      seed,
      grammarEvaluationState: () => state,
      tokenBias: () => (run.firedAt === undefined && run.tokens.length >= PROSE_TOKENS ? nudge : none),
      // A random model writes its end of turn now and then (node-llama-cpp ignores a bias on it): it is
      // sampled on like any token and prints nothing, in both runs alike.
      yieldEogToken: true,
    };
    for await (const token of sequence.evaluate(prompt, options)) {
      const piece = model.isEogToken(token) ? "" : model.detokenize([token], true);
      run.tokens.push(token);
      run.text += piece;
      if (run.firedAt === undefined && trigger.push(piece, token)) {
        run.firedAt = run.tokens.length - 1;
        if (grammar !== undefined) {
          state = new LlamaGrammarEvaluationState({ model, grammar });
          // The grammar takes the trigger's text (a token trigger: its piece; a pattern: from its capture on).
          for (const t of model.tokenize(trigger.fired!, true)) acceptToken(state, t);
        }
      }
      // One call, then the text after it is free prose again: stop once the call has closed.
      if (run.firedAt !== undefined && run.text.endsWith("</tool_call>")) break;
      if (run.tokens.length >= max) break;
    }
    return run;
  } finally {
    await context.dispose();
  }
}

interface Case {
  label: string;
  format: FormatDescription;
  prompt: string;
  promptSuffix: string;
  /** Markers the model is nudged towards after some prose. */
  bias: string[];
}

const CASES: Case[] = [
  {
    // No reasoning: the trigger is the one-token marker, sent as a token trigger with its id.
    label: "hermes without reasoning, a token trigger",
    format: { ...getFormat("hermes"), reasoning: [] },
    prompt: "<|im_start|>user\nSet it up.<|im_end|>\n<|im_start|>assistant\n",
    promptSuffix: "<|im_start|>assistant\n",
    bias: ["<tool_call>"],
  },
  {
    // The prompt opened reasoning: a pattern_full trigger that fires only after `</think>`.
    label: "hermes with the prompt inside <think>, a pattern trigger",
    format: getFormat("hermes"),
    prompt: "<|im_start|>user\nSet it up.<|im_end|>\n<|im_start|>assistant\n<think>\n",
    promptSuffix: "<|im_start|>assistant\n<think>\n",
    bias: ["</think>", "<tool_call>"],
  },
];

describe("a lazy grammar on llama.cpp: prose as without a grammar, calls constrained once triggered", () => {
  for (const c of CASES) {
    it(`${c.label}: ${SAMPLES} seeds`, async () => {
      const lazy = buildLazyGbnf(c.format, REQUEST, { promptSuffix: c.promptSuffix })!;
      // What the server sends: a word that is one token of the vocabulary goes as its id.
      const triggers: GrammarTrigger[] = lazy.triggers.map((t) => {
        if (t.kind !== "word") return t;
        const ids = model.tokenize(t.word, true);
        return ids.length === 1 ? { kind: "word", text: t.word, token: ids[0]! } : { kind: "word", text: t.word };
      });
      if (c.format.reasoning?.length === 0) expect(triggers).toEqual([{ kind: "word", text: "<tool_call>", token: vocab.tokens.indexOf("<tool_call>") }]);
      else expect(triggers[0]?.kind).toBe("pattern-full");
      const grammar = await model.llama.createGrammar({ grammar: lazy.grammar });
      const prompt = model.tokenize(c.prompt, true);
      let valid = 0;
      let validWithout = 0;
      let fired = 0;
      const failures: string[] = [];
      for (let n = 0; n < SAMPLES; n++) {
        const seed = 4000 + n;
        const constrained = await sample(prompt, seed, triggers, c.bias, 400, grammar);
        const free = await sample(prompt, seed, triggers, c.bias, constrained.tokens.length);
        // Prose is sampled exactly as with no grammar: same tokens up to and including the trigger.
        const upTo = (constrained.firedAt ?? constrained.tokens.length - 1) + 1;
        expect(constrained.tokens.slice(0, upTo), `seed ${seed}`).toEqual(free.tokens.slice(0, upTo));
        expect(constrained.firedAt, `seed ${seed}`).toBe(free.firedAt);
        if (constrained.firedAt === undefined) continue;
        fired++;
        const got = parseCompletion(c.format, constrained.text, REQUEST, { promptSuffix: c.promptSuffix });
        if ((got.message.tool_calls ?? []).length === 1 && got.errors.length === 0) valid++;
        else failures.push(`${JSON.stringify(constrained.text)}: ${JSON.stringify(got.errors)}`);
        const loose = parseCompletion(c.format, free.text, REQUEST, { promptSuffix: c.promptSuffix });
        if ((loose.message.tool_calls ?? []).length === 1 && loose.errors.length === 0) validWithout++;
      }
      expect(fired).toBeGreaterThanOrEqual(SAMPLES * 0.9);
      expect(valid / fired, failures.join("\n")).toBeGreaterThanOrEqual(0.95);
      // Without the grammar after the trigger, the same random model writes no valid call.
      expect(validWithout).toBeLessThan(valid);
    }, 600_000);
  }
});
