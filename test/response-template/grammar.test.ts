/**
 * A compiled response template gets a grammar like any family (issue 20): the GBNF emitter writes one
 * for every compiled template, and an independent recogniser (test/helpers/gbnf-recognizer.ts) accepts
 * the canonical call completions that transformers and chatwire read alike.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildGbnf, grammarUnavailable } from "../../src/grammar/index.js";
import type { FormatDescription } from "../../src/parse/language.js";
import { compileResponseTemplate } from "../../src/response-template/compile.js";
import { validateResponseTemplate } from "../../src/response-template/validate.js";
import { GbnfRecognizer } from "../helpers/gbnf-recognizer.js";
import { REPO_ROOT } from "../helpers/fixtures.js";
import type { Reference } from "./agreement.js";

const DIR = join(REPO_ROOT, "fixtures", "response-templates");
const read = (name: string) => JSON.parse(readFileSync(join(DIR, name), "utf8"));
const TEMPLATES: { id: string; response_template: unknown }[] = [...read("fallbacks.json").templates, ...read("transformers-tests.json").templates];
const REFERENCES: Reference[] = read("references.json").cases;

function withoutEndTokens(format: FormatDescription, text: string): string {
  for (let changed = true; changed; ) {
    changed = false;
    for (const token of format.ignore ?? []) {
      if (text.endsWith(token)) {
        text = text.slice(0, -token.length);
        changed = true;
      }
    }
  }
  return text;
}

/** Reference completions the grammar does not write, with why (it writes one canonical form). */
const NOT_CANONICAL: Record<string, string> = {
  "qwen3_5/one call, string values":
    "the declared tag_pattern allows whitespace around a value (\\s*), and the grammar writes none; the qwen3-coder family's grammar writes Qwen's newlines",
  "cohere/plan, then one action":
    "the grammar writes a newline after <|START_ACTION|> and before <|END_ACTION|>, and the declared keys (tool_name, parameters) only, not Cohere's tool_call_id",
};

/** Completions in the form the grammar writes, where a reference is not in it. */
const CANONICAL: Record<string, string> = {
  qwen3_5: "<tool_call>\n<function=get_weather>\n<parameter=city>Paris</parameter>\n</function>\n</tool_call>",
  cohere: '<|START_THINKING|>Look it up.<|END_THINKING|><|START_ACTION|>\n{"tool_name": "get_weather", "parameters": {"city": "Paris"}}\n<|END_ACTION|>',
};

const compiled = TEMPLATES.flatMap((t) => {
  const c = compileResponseTemplate(validateResponseTemplate(t.response_template, t.id));
  return c.ok ? [[t.id, c.format] as const] : [];
});

describe.each(compiled)("%s", (id, format) => {
  it("has a grammar", () => expect(grammarUnavailable(format)).toBeUndefined());
  const canonical = REFERENCES.filter((r) => r.template === id && r.name.match(/^(single call, nothing else|one call(, string values)?|plan, then one action)$/));
  it("has a canonical case", () => expect(canonical.length).toBe(1));
  for (const ref of canonical) {
    const reason = NOT_CANONICAL[`${id}/${ref.name}`];
    it(reason === undefined ? `accepts ${ref.name}` : `rejects ${ref.name}: ${reason}`, () => {
      const grammar = buildGbnf(format, { tools: ref.tools }, ref.promptSuffix ? { promptSuffix: ref.promptSuffix } : {});
      expect(new GbnfRecognizer(grammar).accepts(withoutEndTokens(format, ref.completion))).toBe(reason === undefined);
      const written = CANONICAL[id];
      if (written !== undefined) expect(new GbnfRecognizer(grammar).accepts(written)).toBe(true);
    });
  }
});
