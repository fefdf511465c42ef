/**
 * Exported response templates (issue 20, step 4): for every family, `exportResponseTemplate` writes what
 * fixtures/response-templates/exported.json holds (else the references are stale: rerun
 * scripts/dump-exported-templates.py), transformers' loader accepted it, and transformers' parse_response
 * with it gives chatwire's calls, content and reasoning on every completion of the family
 * (fixtures/completions/), except the differences EXPORT-DISAGREEMENTS.md lists with their reasons.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getFormat, listFormats } from "../../src/formats/index.js";
import { parseCompletion } from "../../src/parse/index.js";
import { chooseFormat } from "../../src/response-template/choose.js";
import { compileResponseTemplate } from "../../src/response-template/compile.js";
import { exportResponseTemplate } from "../../src/response-template/export.js";
import { REPO_ROOT } from "../helpers/fixtures.js";
import { countingIds } from "../helpers/run-parse.js";
import { differences, fromChatwire, fromTransformers, type Reference } from "./agreement.js";

const DIR = join(REPO_ROOT, "fixtures", "response-templates");
interface Family {
  format: string;
  refused?: string;
  response_template?: unknown;
  omitted?: string[];
  loads?: true | string;
  references?: { name: string; transformers: Reference["transformers"] }[];
}
const FAMILIES: Family[] = JSON.parse(readFileSync(join(DIR, "exported.json"), "utf8")).families;
/** Each listed case (`### format: case name`) with the kind of its section (`generic` or `cannot-say`). */
const LISTED = new Map<string, string>();
let section = "";
for (const line of readFileSync(join(DIR, "EXPORT-DISAGREEMENTS.md"), "utf8").split("\n")) {
  if (line.startsWith("## ")) section = /\((generic|cannot-say)\)$/.exec(line)?.[1] ?? "";
  else if (line.startsWith("### ")) LISTED.set(line.slice(4), section);
}

function completions(format: string): { tools: unknown[]; cases: { name: string; completion: string; promptSuffix?: string; tools?: unknown[] | null }[] } {
  return JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "completions", `${format}.json`), "utf8"));
}

it("the references cover every family", () => {
  expect(FAMILIES.map((f) => f.format).sort()).toEqual(listFormats().map((f) => f.id).sort());
});

it("lists each case once, in a section of a known kind, for a case that exists", () => {
  expect([...LISTED.values()].filter((kind) => kind === "")).toEqual([]);
  const cases = new Set(FAMILIES.flatMap((f) => (f.references ?? []).map((r) => `${f.format}: ${r.name}`)));
  expect([...LISTED.keys()].filter((k) => !cases.has(k))).toEqual([]);
});

it("writes at least 30 families that transformers loads and that differ from chatwire only by chatwire's own rules", () => {
  const cannotSay = new Set([...LISTED].filter(([, kind]) => kind === "cannot-say").map(([key]) => key.slice(0, key.indexOf(": "))));
  const agreeing = FAMILIES.filter((f) => f.loads === true && !cannotSay.has(f.format)).map((f) => f.format);
  expect(agreeing.length, agreeing.join(", ")).toBeGreaterThanOrEqual(30);
});

it("writes at least 25 families that agree with chatwire strictly: no listed difference of any kind", () => {
  const listed = new Set([...LISTED.keys()].map((key) => key.slice(0, key.indexOf(": "))));
  const strict = FAMILIES.filter((f) => f.loads === true && !listed.has(f.format)).map((f) => f.format);
  console.log(`strict agreement: ${strict.length} families (${strict.join(", ")})`);
  expect(strict.length, strict.join(", ")).toBeGreaterThanOrEqual(25);
});

it("reads its own exports back: those chatwire compiles are parsed by the family they were written from", () => {
  const compiling = listFormats().flatMap((f) => {
    const exported = exportResponseTemplate(f);
    const compiled = exported.ok ? compileResponseTemplate(exported.template) : undefined;
    if (compiled?.ok !== true) return [];
    expect(chooseFormat(f, compiled.format).source, f.id).toBe("family");
    return [f.id];
  });
  // The families whose exported markers are literal (or alternations of literals, value ends, call
  // boundaries in thinking, GLM's key and value tags); the others write classes, header alternatives or
  // lookaheads the compiler refuses.
  expect(compiling.sort()).toEqual([
    "apriel", "command-r-plus", "command-r7b", "ernie-4.5", "gemma4", "glm-4.5", "hermes", "hunyuan-a13b", "hunyuan-v3",
    "internlm2", "jamba", "json-block", "longcat", "minimax-m1", "nemotron-v2", "qwen3-coder", "seed-oss",
  ]);
});

describe.each(FAMILIES.map((f) => [f.format, f] as const))("%s", (id, family) => {
  const exported = exportResponseTemplate(getFormat(id));
  it("is what the references were made with", () => {
    if (family.refused !== undefined) expect(exported.ok).toBe(false);
    else expect(exported.ok && exported.template).toEqual(family.response_template);
  });
  if (family.references === undefined) return;
  it("loads in transformers", () => expect(family.loads).toBe(true));
  const fixture = completions(id);
  for (const ref of family.references) {
    if (!("message" in ref.transformers)) continue;
    const message = ref.transformers.message;
    const key = `${id}: ${ref.name}`;
    it(LISTED.has(key) ? `${ref.name} (listed: must still disagree)` : ref.name, () => {
      const c = fixture.cases.find((x) => x.name === ref.name)!;
      const tools = c.tools === undefined ? fixture.tools : c.tools;
      const request = tools ? { messages: [], tools } : undefined;
      const result = parseCompletion(getFormat(id), c.completion, request, { idGenerator: countingIds(id), ...(c.promptSuffix ? { promptSuffix: c.promptSuffix } : {}) });
      const found = differences(fromTransformers(message), fromChatwire(result));
      if (LISTED.has(key)) expect(found.length, `${key} agrees now: remove it from EXPORT-DISAGREEMENTS.md`).toBeGreaterThan(0);
      else expect(found, found.join(" || ")).toEqual([]);
    });
  }
});
