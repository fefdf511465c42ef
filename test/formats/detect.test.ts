/**
 * Detection over the real corpus templates (fixtures/templates, copied from llama.cpp's
 * models/templates, see its SOURCES.md): every template with tool syntax maps to its family, the ones
 * without (or with a syntax chatwire does not support) map to undefined.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { detectFormat, detectReasoning, getFormat, listFormats } from "../../src/formats/index.js";
import type { FormatId } from "../../src/formats/index.js";
import { completionFiles } from "../helpers/fixtures.js";

const DIR = join(import.meta.dirname, "../../fixtures/templates");

/**
 * The family of each corpus template, decided by reading the template (formats.md has the facts): each
 * family's completion fixture lists the templates it is detected from (`templates`), and
 * fixtures/templates/no-tool-format.json lists the ones without a (supported) tool syntax, with why.
 */
const NO_FORMAT = JSON.parse(readFileSync(join(DIR, "no-tool-format.json"), "utf8")) as Record<string, string>;
const EXPECTED: Record<string, FormatId | undefined> = Object.fromEntries([
  ...completionFiles().flatMap((f) => (f.templates ?? []).map((t) => [t, f.format as FormatId] as const)),
  ...Object.keys(NO_FORMAT).map((t) => [t, undefined] as const),
]);

const templates = readdirSync(DIR).filter((f) => f.endsWith(".jinja")).sort();
const source = (file: string) => readFileSync(join(DIR, file), "utf8");

describe("detectFormat over the corpus templates", () => {
  it("has an expectation for every corpus template", () => {
    // Each template is listed by exactly one family fixture, or as having no tool format.
    expect(templates).toEqual(Object.keys(EXPECTED).sort());
  });
  for (const file of templates) {
    it(file, () => {
      expect(detectFormat(source(file))).toBe(EXPECTED[file]);
    });
  }
});

describe("detectFormat on small sources", () => {
  it("tells the families that share <tool_call> apart", () => {
    expect(detectFormat("{{ '<tool_call>' }}")).toBe("hermes");
    expect(detectFormat("<tool_call><function=x><parameter=y>")).toBe("qwen3-coder");
    expect(detectFormat("<tool_call>{{ k }}<arg_key>")).toBe("glm-4.5");
    expect(detectFormat("<available_tools><tool_calls>[<tool_call>")).toBe("apriel");
  });
  it("orders the DeepSeek generations", () => {
    expect(detectFormat("<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>' + tool['type'] + '<｜tool▁sep｜>")).toBe("deepseek-r1");
    expect(detectFormat("<｜tool▁calls▁begin｜>' + tool['function']['name'] + '<｜tool▁sep｜>' {{ message['prefix'] }}")).toBe("deepseek-v3.1");
    expect(detectFormat("<｜tool▁calls▁begin｜> <｜DSML｜function_calls>")).toBe("deepseek-v3.2");
  });
  it("tells firefunction (leading space) from phi4-mini", () => {
    expect(detectFormat("formatted as functools[{...}]")).toBe("firefunction-v2");
    expect(detectFormat("<|tool|>functools[{...}]")).toBe("phi4-mini");
  });
  it("returns undefined for a template without tool syntax", () => {
    expect(detectFormat("{% for m in messages %}{{ m.content }}{% endfor %}")).toBeUndefined();
  });
  it("never auto-detects json-block", () => {
    expect(detectFormat("```json\n{\"name\": ...}\n```")).toBeUndefined();
  });
});

describe("detectReasoning", () => {
  it("gives the family's markers when the template uses them", () => {
    expect(detectReasoning(source("Qwen-Qwen3-0.6B.jinja"))).toEqual({ start: ["<think>"], end: ["</think>"] });
    expect(detectReasoning(source("mistralai-Ministral-3-14B-Reasoning-2512.jinja"))).toEqual({ start: ["[THINK]"], end: ["[/THINK]"] });
    expect(detectReasoning(source("CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja"))?.start).toEqual(["<|START_THINKING|>"]);
    expect(detectReasoning(source("Apertus-8B-Instruct.jinja"))?.start).toEqual(["<|inner_prefix|>"]);
  });
  it("finds <think> in templates without a tool format", () => {
    expect(detectFormat(source("HuggingFaceTB-SmolLM3-3B.jinja"))).toBeUndefined();
    expect(detectReasoning(source("HuggingFaceTB-SmolLM3-3B.jinja"))).toEqual({ start: ["<think>"], end: ["</think>"] });
  });
  it("gives undefined when the template does not reason", () => {
    expect(detectReasoning(source("Qwen-Qwen2.5-7B-Instruct.jinja"))).toBeUndefined();
    expect(detectReasoning(source("google-gemma-2-2b-it.jinja"))).toBeUndefined();
  });
});

describe("the registry", () => {
  it("every registered format has a completion fixture, and every fixture a registered format", () => {
    const ids = listFormats().map((f) => f.id);
    expect([...ids].sort()).toEqual(completionFiles().map((f) => f.format).sort());
    for (const id of ids) expect(getFormat(id).id).toBe(id);
  });
  it("no template is listed twice", () => {
    const listed = [...completionFiles().flatMap((f) => f.templates ?? []), ...Object.keys(NO_FORMAT)];
    expect(listed.length).toBe(new Set(listed).size);
  });
  it("throws ChatwireError unknown_format for an unregistered id", () => {
    expect(() => getFormat("nope")).toThrow(ChatwireError);
    try {
      getFormat("nope");
    } catch (err) {
      expect((err as ChatwireError).code).toBe("unknown_format");
      expect((err as Error).message).toContain("hermes");
    }
  });
});
