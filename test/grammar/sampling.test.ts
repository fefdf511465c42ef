/**
 * Grammar and parser agree: strings sampled (seeded) from each format's grammar parse, one-shot and
 * streamed at random splits, into exactly the calls the grammar derived (read from the derivation tree,
 * see derive.ts), with no error, and every derived call is valid for its tool's schema (ajv, an
 * independent check). Every sample is also accepted by the independent recogniser of the printed
 * grammar text. The sampler's long whitespace wishes land in strings, raw values and free text, where
 * runs are not bounded (test/grammar/whitespace.test.ts checks the structural bound with llama.cpp).
 */
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { getFormat } from "../../src/formats/index.js";
import type { FormatId } from "../../src/formats/types.js";
import { emitGbnf } from "../../src/grammar/gbnf-grammar.js";
import { grammarFormats } from "../../src/grammar/index.js";
import { formatMarkers } from "../../src/grammar/markers.js";
import { MAX_WHITESPACE } from "../../src/grammar/text-rules.js";
import { createStreamParser, foldDeltas, parseCompletion } from "../../src/parse/index.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";
import { randomPieces, seededRandom } from "../helpers/rng.js";
import { derive } from "./derive.js";
import { GbnfSampler } from "./sampler.js";
import { KEYWORD_TOOLS, REQUEST_VARIANTS, RICH_TOOLS } from "./tools.js";

/** Samples per format and request variant (CI); SAMPLES=n runs more. */
const SAMPLES = Number(process.env.GRAMMAR_SAMPLES ?? 24);

/** What the sampler tries to write now and then, besides the format's own markers. */
const WISHES = [
  "</parameter>", "\n</parameter>\n<parameter=", "</function>", "<function=", "</tool_call>", "\\x", "\\xZZ", "\\u12", "\\ud800", "\\",
  "'", '"', " ".repeat(MAX_WHITESPACE + 5), "\n".repeat(MAX_WHITESPACE + 5), "\r\n", "\r", "{", "[", "]", "}", "3", "-0", "1e5", "null", "None", "True", "true", "FALSE", " null ", "+1", ".5", "(1,)",
];

const ajv = new Ajv({ strict: false });
// The keyword tools (ranges, lengths, patterns) sit beside the rich ones, so their rules are sampled too.
const TOOLS = [...RICH_TOOLS, ...KEYWORD_TOOLS];
const validators = new Map(TOOLS.map((t) => [t.function.name, ajv.compile(t.function.parameters ?? {})]));

function idGen(format: string): () => string {
  let n = 0;
  return format === "mistral" ? () => String(++n).padStart(9, "0") : () => `call_${String(++n).padStart(24, "0")}`;
}

/**
 * The end of the generation prompt of the channel formats' templates (fixtures/templates: gpt-oss's and Muse Glimmer's
 * end `<|start|>assistant`, Functionary v3.2's `>>>`): the output starts inside that header.
 */
const GENERATION_PROMPT: Partial<Record<FormatId, string>> = { harmony: "<|start|>assistant", "functionary-v3.2": "<|start_header_id|>assistant<|end_header_id|>\n\n>>>", "muse-glimmer": "<|start|>assistant" };

/** The prompt ends each case is sampled with: none, an opened reasoning block, the template's own. */
function promptSuffixes(format: FormatId, variant: string): (string | undefined)[] {
  const own = GENERATION_PROMPT[format];
  const base: (string | undefined)[] = variant === "auto" || variant === "required" ? [undefined, "<think>\n"] : [undefined];
  return own === undefined ? base : [...base, own];
}

let total = 0;

describe("sampled completions parse into exactly the calls the grammar derived", () => {
  for (const format of grammarFormats()) {
    const wishes = [...formatMarkers(getFormat(format)), ...WISHES];
    for (const [variant, request] of Object.entries(REQUEST_VARIANTS(TOOLS))) {
      // A prompt that opened reasoning changes only the start: checked with two choices; a channel
      // format's own generation prompt with every choice.
      for (const promptSuffix of promptSuffixes(format, variant)) {
        const label = `${format}, ${variant}${promptSuffix === undefined ? "" : promptSuffix === "<think>\n" ? ", prompt opened reasoning" : ", its generation prompt"}`;
        it(label, () => {
          const options = promptSuffix === undefined ? {} : { promptSuffix };
          const grammar = emitGbnf(format, request, options);
          const sampler = new GbnfSampler(grammar.text);
          const recognizer = new GbnfRecognizer(grammar.text);
          const random = seededRandom(hash(label));
          let withCalls = 0;
          for (let n = 0; n < SAMPLES; n++) {
            const { text, tree } = sampler.sample(random, { wishes, budget: 240 });
            const where = `${label} sample ${n}: ${JSON.stringify(text)}`;
            // The Earley recogniser is the slow part: every third sample is enough to check the printed text.
            if (n % 3 === 0) expect(recognizer.accepts(text), where).toBe(true);
            const want = (() => {
              try {
                return derive(text, tree, grammar.captures);
              } catch (err) {
                throw new Error(`${where}: ${String(err)}`);
              }
            })();
            for (const call of want.calls) {
              const validate = validators.get(call.name)!;
              expect(validate(call.arguments), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
            }
            const got = parseCompletion(format as FormatId, text, request, { ...options, idGenerator: idGen(format) });
            expect(got.errors, where).toEqual([]);
            expect(
              (got.message.tool_calls ?? []).map((c) => ({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as unknown })),
              where,
            ).toEqual(want.calls);
            // A channel header routes its body: text the grammar wrote as reasoning (`analysis`, `to=self`)
            // is the parser's reasoning (which keeps no whitespace-only reasoning).
            if (getFormat(format).channels !== undefined) expect((got.message.reasoning_content ?? "").trim(), where).toBe(want.reasoning.trim());
            const parser = createStreamParser(format as FormatId, request, { ...options, idGenerator: idGen(format) });
            const pieces = randomPieces(text, 1 + Math.floor(random() * 8), random);
            const streamed = foldDeltas([...pieces.flatMap((p) => parser.push(p)), ...parser.end()]);
            expect(streamed, `${where} in pieces ${JSON.stringify(pieces)}`).toEqual(got);
            if (want.calls.length > 0) withCalls++;
            total++;
          }
          if (variant === "required" || variant === "named") expect(withCalls).toBe(SAMPLES);
          if (variant === "none") expect(withCalls).toBe(0);
        });
      }
    }
  }
  it("checked a real number of samples", () => {
    const cases = grammarFormats().reduce((n, f) => n + Object.keys(REQUEST_VARIANTS(TOOLS)).reduce((m, v) => m + promptSuffixes(f, v).length, 0), 0);
    expect(cases).toBe(grammarFormats().length * 7 + Object.keys(GENERATION_PROMPT).length * 5);
    expect(total).toBe(SAMPLES * cases);
  });
});

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
