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

const DIR = join(import.meta.dirname, "../../fixtures/templates");

/** The family of each corpus template, decided by reading the template (formats.md has the facts). */
const EXPECTED: Record<string, FormatId | undefined> = {
  "Apertus-8B-Instruct.jinja": "apertus",
  "Apriel-1.6-15b-Thinker-fixed.jinja": "apriel",
  "Bielik-11B-v3.0-Instruct.jinja": "hermes",
  "ByteDance-Seed-OSS.jinja": "seed-oss",
  "Cohere2MoE.jinja": "command-r7b",
  // Command R+ asks for a plain "Action: ```json" list: no native syntax of ours (json-block by id).
  "CohereForAI-c4ai-command-r-plus-tool_use.jinja": undefined,
  "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja": "command-r7b",
  "GLM-4.6.jinja": "glm-4.5",
  "GLM-4.7-Flash.jinja": "glm-4.5",
  "GigaChat3-10B-A1.8B.jinja": "gigachat3",
  "GigaChat3.1-10B-A1.8B.jinja": "gigachat3",
  "HuggingFaceTB-SmolLM3-3B.jinja": undefined,
  "Kimi-K2-Instruct.jinja": "kimi-k2",
  "Kimi-K2-Thinking.jinja": "kimi-k2",
  "LFM2-8B-A1B.jinja": "lfm2",
  "LFM2.5-8B-A1B.jinja": "lfm2",
  "LFM2.5-Instruct.jinja": "lfm2",
  "MiMo-VL.jinja": "hermes",
  "MiniMax-M2.jinja": "minimax-m2",
  "Mistral-Small-3.2-24B-Instruct-2506.jinja": "mistral",
  "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja": "qwen3-coder",
  "NVIDIA-Nemotron-Nano-v2.jinja": "nemotron-v2",
  "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja": "hermes",
  "NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja": "hermes",
  "Qwen-QwQ-32B.jinja": "hermes",
  "Qwen-Qwen2.5-7B-Instruct.jinja": "hermes",
  "Qwen-Qwen3-0.6B.jinja": "hermes",
  "Qwen3-Coder.jinja": "qwen3-coder",
  "Qwen3.5-4B.jinja": "qwen3-coder",
  "Reka-Edge.jinja": "hermes",
  "StepFun3.5-Flash.jinja": "qwen3-coder",
  "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja": "deepseek-r1",
  "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja": "deepseek-r1",
  "deepseek-ai-DeepSeek-V3.1.jinja": "deepseek-v3.1",
  "deepseek-ai-DeepSeek-V3.2.jinja": "deepseek-v3.2",
  "fireworks-ai-llama-3-firefunction-v2.jinja": "firefunction-v2",
  "google-gemma-2-2b-it.jinja": undefined,
  "google-gemma-4-31B-it-interleaved.jinja": "gemma4",
  "google-gemma-4-31B-it.jinja": "gemma4",
  "ibm-granite-granite-3.3-2B-Instruct.jinja": "granite",
  "ibm-granite-granite-4.0.jinja": "hermes",
  "ibm-granite-granite-4.1.jinja": "hermes",
  "llama-cpp-deepseek-r1.jinja": "deepseek-r1",
  "llama-cpp-rwkv-world.jinja": undefined,
  "meetkai-functionary-medium-v3.1.jinja": "functionary-v3.1",
  "meetkai-functionary-medium-v3.2.jinja": "functionary-v3.2",
  "meta-llama-Llama-3.1-8B-Instruct.jinja": "llama3-json",
  "meta-llama-Llama-3.2-3B-Instruct.jinja": "llama3-json",
  "meta-llama-Llama-3.3-70B-Instruct.jinja": "llama3-json",
  "microsoft-Phi-3.5-mini-instruct.jinja": undefined,
  "mistralai-Ministral-3-14B-Reasoning-2512.jinja": "mistral",
  "mistralai-Mistral-Nemo-Instruct-2407.jinja": "mistral",
  "moonshotai-Kimi-K2.jinja": "kimi-k2",
  "openai-gpt-oss-120b.jinja": "harmony",
  "stepfun-ai-Step-3.5-Flash.jinja": "qwen3-coder",
  "unsloth-Apriel-1.5.jinja": "apriel",
  "unsloth-mistral-Devstral-Small-2507.jinja": "mistral",
  // Solar Open writes `<|tool_call:begin|>id<|tool_call:name|>...`: not a supported family.
  "upstage-Solar-Open-100B.jinja": undefined,
};

const ALL_IDS: FormatId[] = [
  "hermes", "qwen3-coder", "llama3-json", "pythonic", "lfm2", "tagged-pythonic", "mistral", "deepseek-r1",
  "deepseek-v3.1", "deepseek-v3.2", "glm-4.5", "kimi-k2", "harmony", "minimax-m2", "seed-oss", "granite",
  "command-r7b", "functionary-v3.1", "functionary-v3.2", "firefunction-v2", "phi4-mini", "nemotron-v2",
  "apertus", "apriel", "gigachat3", "gemma4", "json-block",
];

const templates = readdirSync(DIR).filter((f) => f.endsWith(".jinja")).sort();
const source = (file: string) => readFileSync(join(DIR, file), "utf8");

describe("detectFormat over the corpus templates", () => {
  it("has an expectation for every corpus template", () => {
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
  it("registers every format id of issue 3, each under its own id", () => {
    const ids = listFormats().map((f) => f.id);
    expect([...ids].sort()).toEqual([...ALL_IDS].sort());
    for (const id of ALL_IDS) expect(getFormat(id).id).toBe(id);
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
