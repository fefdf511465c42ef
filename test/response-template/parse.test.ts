/**
 * Parsing with a response template agrees with transformers (issue 20, step 3). For every reference in
 * fixtures/response-templates/references.json (transformers' `parse_response` with a fallback template on
 * its family's completions and hand-written cases), chatwire parses with the compiled template and with
 * the format chosen for it (chooseFormat: the detected family when it speaks the declared syntax), one-shot
 * and streamed at every split into two pushes, and must give the same calls, content and reasoning
 * (agreement.ts), except the differences listed with their reasons in DISAGREEMENTS.md.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getFormat } from "../../src/formats/index.js";
import { createStreamParser, foldDeltas, parseCompletion } from "../../src/parse/index.js";
import type { FormatDescription } from "../../src/parse/language.js";
import { chooseFormat } from "../../src/response-template/choose.js";
import { compileResponseTemplate } from "../../src/response-template/compile.js";
import { validateResponseTemplate } from "../../src/response-template/validate.js";
import { templateFromConfig } from "../../src/template/core.js";
import type { ParseResult } from "../../src/types.js";
import { REPO_ROOT } from "../helpers/fixtures.js";
import { countingIds } from "../helpers/run-parse.js";
import { differences, fromChatwire, fromTransformers, type Reference } from "./agreement.js";

const DIR = join(REPO_ROOT, "fixtures", "response-templates");
const read = (name: string) => readFileSync(join(DIR, name), "utf8");
const FALLBACKS: { id: string; family: string; response_template: unknown }[] = JSON.parse(read("fallbacks.json")).templates;
/** transformers' test templates with a family whose completions they are compared on, and that compile. */
const TESTED: { id: string; family: string; response_template: unknown }[] = JSON.parse(read("transformers-tests.json")).templates.filter(
  (t: { family: string | null; response_template: unknown }) => t.family !== null && compileResponseTemplate(validateResponseTemplate(t.response_template, "test")).ok,
);
const TEMPLATES = [...FALLBACKS, ...TESTED];
const REFERENCES: Reference[] = JSON.parse(read("references.json")).cases;
const LISTED = new Set([...read("DISAGREEMENTS.md").matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1]!));

/** The compiled template, and the family when chooseFormat picks it. */
function formats(id: string): { declared: FormatDescription; family?: FormatDescription } {
  const template = TEMPLATES.find((t) => t.id === id)!;
  const compiled = compileResponseTemplate(validateResponseTemplate(template.response_template, id));
  if (!compiled.ok) throw new Error(`${id} does not compile: ${JSON.stringify(compiled.refusals)}`);
  const chosen = chooseFormat(getFormat(template.family), compiled.format);
  return chosen.source === "family" ? { declared: compiled.format, family: chosen.format } : { declared: compiled.format };
}

function parse(format: FormatDescription, ref: Reference, pieces?: readonly string[]): ParseResult {
  const request = ref.tools ? { messages: [], tools: ref.tools } : undefined;
  const options = { idGenerator: countingIds(format.id), ...(ref.promptSuffix ? { promptSuffix: ref.promptSuffix } : {}) };
  if (pieces === undefined) return parseCompletion(format, ref.completion, request, options);
  const parser = createStreamParser(format, request, options);
  return foldDeltas([...pieces.flatMap((p) => parser.push(p)), ...parser.end()]);
}

/** Every cut of the text into two pushes, at code point boundaries. */
function twoPushSplits(text: string): [string, string][] {
  const points = [...text];
  return points.map((_, i) => [points.slice(0, i).join(""), points.slice(i).join("")]);
}

const accepted = REFERENCES.filter((r): r is Reference & { transformers: { message: object } } => "message" in r.transformers);

describe("the references", () => {
  it("cover every template and every completion of its family", () => {
    for (const t of TEMPLATES) {
      const family = JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "completions", `${t.family}.json`), "utf8"));
      const names = REFERENCES.filter((r) => r.template === t.id && r.source.startsWith("completions/")).map((r) => r.name);
      expect(names, t.id).toEqual(family.cases.map((c: { name: string }) => c.name));
    }
  });
  it("list only cases that exist", () => {
    const keys = new Set(accepted.flatMap((r) => [`declared ${r.template}: ${r.name}`, `family ${r.template}: ${r.name}`]));
    expect([...LISTED].filter((k) => !keys.has(k))).toEqual([]);
  });
});

it("the fallbacks are parsed by their family, which speaks their syntax", () => {
  for (const t of FALLBACKS) expect(formats(t.id).family, t.id).toBeDefined();
});

describe.each(TEMPLATES.map((t) => t.id))("%s", (id) => {
  const both = formats(id);
  for (const ref of accepted.filter((r) => r.template === id)) {
    for (const which of ["declared", "family"] as const) {
      const format = both[which];
      if (format === undefined) continue;
      const key = `${which} ${id}: ${ref.name}`;
      it(LISTED.has(key) ? `${key} (listed: must still disagree)` : key, () => {
        const oneShot = parse(format, ref);
        const found = differences(fromTransformers(ref.transformers.message), fromChatwire(oneShot));
        if (LISTED.has(key)) expect(found.length, `${key} agrees now: remove it from DISAGREEMENTS.md`).toBeGreaterThan(0);
        else expect(found, ref.source).toEqual([]);
        for (const pieces of twoPushSplits(ref.completion)) {
          expect(parse(format, ref, pieces), JSON.stringify(pieces)).toEqual(oneShot);
        }
      });
    }
  }
});

describe("ChatTemplate.parse with a declared response template", () => {
  const fallback = (id: string) => FALLBACKS.find((t) => t.id === id)!.response_template;
  const HERMES_CHAT = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{# <tool_call> #}";
  const PLAIN_CHAT = "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}";
  const tools = { messages: [], tools: [{ type: "function", function: { name: "get_time", parameters: { type: "object", properties: {} } } }] };

  it("parses with the family, plus the declaration's end-of-turn markers, when the family speaks it", () => {
    const declared = templateFromConfig({ chat_template: HERMES_CHAT, response_template: fallback("qwen2") });
    expect(declared.format).toBe("hermes");
    expect(declared.responseFormat?.source).toBe("family");
    expect(declared.parse("It is noon.<|im_end|>\n<|endoftext|>").message.content?.trim()).toBe("It is noon.");
    // Without the declaration the family alone keeps <|endoftext|> as text.
    expect(templateFromConfig({ chat_template: HERMES_CHAT }).parse("It is noon.<|im_end|>\n<|endoftext|>").message.content).toContain("<|endoftext|>");
  });

  it("parses with the compiled template when the detected family does not speak it", () => {
    const t = templateFromConfig({ chat_template: PLAIN_CHAT, response_template: fallback("qwen3_5") });
    expect(t.responseFormat).toMatchObject({ source: "declared" });
    const text = "<tool_call>\n<function=get_time>\n</function>\n</tool_call>";
    const streamed = t.streamParser(tools);
    const result = foldDeltas([...streamed.push(text.slice(0, 17)), ...streamed.push(text.slice(17)), ...streamed.end()]);
    expect(result.message.tool_calls?.map((c) => c.function.name)).toEqual(["get_time"]);
    expect(t.parse(text, tools).message.tool_calls?.map((c) => c.function.name)).toEqual(["get_time"]);
  });
});
