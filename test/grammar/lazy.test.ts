/**
 * The lazy grammar (tool_choice auto, llama.cpp's grammar_lazy) agrees with the parser: free text
 * that holds no trigger, then a string sampled (seeded) from the lazy grammar. With llama.cpp's
 * trigger rules (test/helpers/lazy-trigger.ts) the trigger fires and hands the grammar exactly the
 * sampled string, and the whole completion parses into exactly the calls the grammar derived, with
 * the text before as content. Formats with reasoning are checked with a closed reasoning block before
 * the prose and with a prompt that opened it; a call marker inside reasoning never fires the trigger.
 */
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import type { FormatId } from "../../src/formats/types.js";
import { getFormat } from "../../src/formats/index.js";
import { emitLazyGbnf } from "../../src/grammar/gbnf-grammar.js";
import { grammarFormats, type LazyTrigger } from "../../src/grammar/index.js";
import { formatMarkers } from "../../src/grammar/markers.js";
import { parseCompletion } from "../../src/parse/index.js";
import type { GrammarTrigger } from "../../src/server/backends/types.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";
import { LazyTriggerState } from "../helpers/lazy-trigger.js";
import { seededRandom } from "../helpers/rng.js";
import { derive } from "./derive.js";
import { GbnfSampler } from "./sampler.js";
import { KEYWORD_TOOLS, RICH_TOOLS } from "./tools.js";

const SAMPLES = Number(process.env.GRAMMAR_SAMPLES ?? 12);
const TOOLS = [...RICH_TOOLS, ...KEYWORD_TOOLS];
const ajv = new Ajv({ strict: false });
const validators = new Map(TOOLS.map((t) => [t.function.name, ajv.compile(t.function.parameters ?? {})]));

export const asSent = (t: LazyTrigger): GrammarTrigger => (t.kind === "word" ? { kind: "word", text: t.word } : t);

/**
 * Feeds `text` to the trigger a few characters at a time (as tokens arrive): where the text the
 * grammar takes starts, or undefined when the trigger never fires.
 */
function firedAt(triggers: readonly LazyTrigger[], text: string): number | undefined {
  const state = new LazyTriggerState(triggers.map(asSent));
  for (let i = 0; i < text.length; i += 3) {
    const piece = text.slice(i, i + 3);
    if (state.push(piece)) return i + piece.length - state.fired!.length;
  }
  return undefined;
}

interface Case {
  label: string;
  /** Text the model writes before its calls. */
  before: string;
  promptSuffix?: string;
}

function cases(format: FormatId): Case[] {
  const f = getFormat(format);
  const atStart = f.regions.some((r) => r.atStartOnly === true);
  const prose = atStart ? "" : "Let me look that up.\n";
  const out: Case[] = [{ label: "prose first", before: prose }];
  const r = f.reasoning?.[0];
  if (r !== undefined) {
    const [open, close] = [r.start[0]!, r.end[0]!];
    out.push({ label: "closed reasoning, then prose", before: `${open}The user wants the weather.${close}\n\n${prose}` });
    out.push({ label: "prompt opened reasoning", before: `The user wants the weather.${close}\n\n${prose}`, promptSuffix: `<|im_start|>assistant\n${open}` });
  }
  // gpt-oss after its generation prompt: an analysis message, then the call message's header.
  if (format === "harmony") {
    const prompt = "<|start|>assistant";
    out.push({ label: "its generation prompt, prose", before: prose, promptSuffix: prompt });
    out.push({ label: "its generation prompt, analysis first", before: "<|channel|>analysis<|message|>The user wants the weather.<|end|><|start|>assistant", promptSuffix: prompt });
  }
  return out;
}

// Channel formats have a lazy form only where a call header opens with a marker wherever it is written
// (harmony's `<|channel|>commentary to=`); Functionary's first call opens with the tool's name.
const LAZY_FORMATS = grammarFormats().filter((f) => emitLazyGbnf(f, { tools: TOOLS }) !== undefined);

describe("lazy grammars: the trigger hands the grammar the call, and the parse agrees", () => {
  for (const format of LAZY_FORMATS) {
    for (const parallel of [true, false]) {
      const request = { tools: TOOLS, ...(parallel ? {} : { parallel_tool_calls: false }) };
      for (const c of cases(format)) {
        const label = `${format}, ${parallel ? "parallel" : "one call"}, ${c.label}`;
        it(label, () => {
          const options = c.promptSuffix === undefined ? {} : { promptSuffix: c.promptSuffix };
          const lazy = emitLazyGbnf(format, request, options)!;
          expect(lazy.triggers.length).toBeGreaterThan(0);
          const sampler = new GbnfSampler(lazy.text);
          const recognizer = new GbnfRecognizer(lazy.text);
          const random = seededRandom(hash(label));
          const wishes = formatMarkers(getFormat(format));
          // The prose alone never fires the trigger.
          expect(firedAt(lazy.triggers, c.before), label).toBeUndefined();
          for (let n = 0; n < SAMPLES; n++) {
            const { text, tree } = sampler.sample(random, { wishes, budget: 200 });
            const where = `${label} sample ${n}: ${JSON.stringify(text)}`;
            if (n % 4 === 0) expect(recognizer.accepts(text), where).toBe(true);
            const completion = c.before + text;
            // The grammar takes over exactly where the sampled calls start.
            expect(firedAt(lazy.triggers, completion), where).toBe(c.before.length);
            const want = derive(text, tree, lazy.captures);
            expect(want.calls.length, where).toBeGreaterThan(0);
            for (const call of want.calls) expect(validators.get(call.name)!(call.arguments), where).toBe(true);
            const got = parseCompletion(format, completion, request, options);
            expect(got.errors, where).toEqual([]);
            expect((got.message.tool_calls ?? []).map((t) => ({ name: t.function.name, arguments: JSON.parse(t.function.arguments) as unknown })), where).toEqual(want.calls);
          }
        });
      }
    }
  }

  it("a call marker inside reasoning does not fire the trigger", () => {
    const lazy = emitLazyGbnf("hermes", { tools: TOOLS }, {})!;
    expect(firedAt(lazy.triggers, '<think>maybe <tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>')).toBeUndefined();
    expect(firedAt(lazy.triggers, "<think>no</think>then <tool_call>\n")).toBe(22);
    const opened = emitLazyGbnf("hermes", { tools: TOOLS }, { promptSuffix: "<think>\n" })!;
    expect(firedAt(opened.triggers, "still thinking <tool_call>")).toBeUndefined();
    expect(firedAt(opened.triggers, "done</think>\n<tool_call>\n")).toBe(13);
  });

  it("pythonic `[` fires only with a callable tool's name after it", () => {
    const lazy = emitLazyGbnf("pythonic", { tools: TOOLS }, {})!;
    expect(firedAt(lazy.triggers, "See [1] and [the docs].")).toBeUndefined();
    expect(firedAt(lazy.triggers, "Sure. [get_weather(city='Oslo')]")).toBe(6);
  });

  it("is not built for Functionary v3.2 or Muse Glimmer (a first call, in the header the prompt opened, has no marker)", () => {
    expect(emitLazyGbnf("functionary-v3.2", { tools: TOOLS })).toBeUndefined();
    // Glimmer's first call is ` to=f<|message|>` after the prompt's `<|start|>assistant`.
    for (const options of [{}, { promptSuffix: "<|start|>assistant" }]) expect(emitLazyGbnf("muse-glimmer", { tools: TOOLS }, options)).toBeUndefined();
    expect(LAZY_FORMATS).toContain("harmony");
    expect(LAZY_FORMATS.length).toBe(grammarFormats().length - 2);
  });

  it("harmony triggers on the call header up to the tool's name, as llama.cpp's own gpt-oss grammar does", () => {
    const lazy = emitLazyGbnf("harmony", { tools: TOOLS }, { promptSuffix: "<|start|>assistant" })!;
    expect(lazy.triggers).toEqual([{ kind: "word", word: "<|channel|>commentary to=functions." }]);
    // An analysis message or a final answer fires nothing.
    expect(firedAt(lazy.triggers, "<|channel|>analysis<|message|>Weather.<|end|><|start|>assistant<|channel|>final<|message|>Sunny.")).toBeUndefined();
  });

  it("is not built for required, a named tool or none (those constrain the whole output, or nothing)", () => {
    for (const tool_choice of ["required", "none", { type: "function", function: { name: "get_time" } }]) {
      expect(emitLazyGbnf("hermes", { tools: TOOLS, tool_choice })).toBeUndefined();
    }
  });
});

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
