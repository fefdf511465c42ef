/**
 * Loading `response_template` / `response_schema` from a config (issue 20, step 1): kept and exposed on
 * the ChatTemplate, validated as transformers' loader validates (fixtures/response-templates/invalid.json
 * holds templates transformers refuses, with its error), and reported by `caps` and `detect`.
 */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { ChatwireError } from "../../src/errors.js";
import { loadTemplate } from "../../src/template/index.js";
import { REPO_ROOT } from "../helpers/fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "chatwire-rt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (name: string) => JSON.parse(readFileSync(join(REPO_ROOT, "fixtures", "response-templates", name), "utf8"));
const FALLBACKS: { id: string; response_template: Record<string, unknown> }[] = fixture("fallbacks.json").templates;
const INVALID: { name: string; response_template: unknown; field: string; transformers_error: string | null }[] = fixture("invalid.json").cases;
const QWEN = FALLBACKS.find((t) => t.id === "qwen2")!.response_template;
const CHAT = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}<tool_call>";

const cli = (argv: string[]) => runCli(argv);

describe("loading a response template", () => {
  it.each(FALLBACKS.map((t) => [t.id, t.response_template] as const))("keeps the %s fallback from an in-memory config", async (_id, rt) => {
    const t = await loadTemplate({ chat_template: CHAT, response_template: rt });
    expect(t.responseTemplate?.fields).toEqual(rt.fields);
    expect(t.responseTemplate?.defaults).toEqual(rt.defaults);
    expect(t.responseSchema).toBeUndefined();
  });

  it("reads it from tokenizer_config.json in a model folder, whichever file holds the chat template", async () => {
    const folder = join(dir, "model");
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "chat_template.jinja"), CHAT);
    writeFileSync(join(folder, "tokenizer_config.json"), JSON.stringify({ eos_token: "<|im_end|>", response_template: QWEN, response_schema: { type: "object", properties: {} } }));
    const t = await loadTemplate(folder);
    expect(t.responseTemplate?.start_anchor).toBe("<|im_start|>assistant\n");
    expect(t.responseSchema).toEqual({ type: "object", properties: {} });
  });

  it("has none when the config has none", async () => {
    const t = await loadTemplate({ chat_template: CHAT });
    expect(t.responseTemplate).toBeUndefined();
  });

  it("keeps the older response_schema as data, refusing one that is not an object", async () => {
    const t = await loadTemplate({ chat_template: CHAT, response_schema: { "x-regex": "(?P<content>.*)" } });
    expect(t.responseSchema).toEqual({ "x-regex": "(?P<content>.*)" });
    await expect(loadTemplate({ chat_template: CHAT, response_schema: "x" })).rejects.toMatchObject({ code: "invalid_template", field: "response_schema" });
  });
});

describe("validation as transformers does it", () => {
  it("every fixture is refused by transformers (the reference)", () => {
    for (const c of INVALID) expect(c.transformers_error, c.name).toMatch(/^ValueError: /);
  });
  it.each(INVALID.map((c) => [c.name, c] as const))("refuses: %s, naming the path", async (_name, c) => {
    const failure = await loadTemplate({ chat_template: CHAT, response_template: c.response_template }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ChatwireError);
    expect(failure).toMatchObject({ code: "invalid_template", field: c.field });
    expect((failure as Error).message).toContain(c.field);
  });
  it("names unknown keys and the bad version in the message", async () => {
    const byName = (n: string) => INVALID.find((c) => c.name === n)!.response_template;
    await expect(loadTemplate({ chat_template: CHAT, response_template: byName("unknown top-level key") })).rejects.toThrow(/"stop"/);
    await expect(loadTemplate({ chat_template: CHAT, response_template: byName("unknown field key") })).rejects.toThrow(/"regex"/);
    await expect(loadTemplate({ chat_template: CHAT, response_template: byName("version 2") })).rejects.toThrow(/version 2/);
  });
});

describe("caps and detect say so", () => {
  const config = join(dir, "tokenizer_config.json");
  writeFileSync(config, JSON.stringify({ chat_template: CHAT, response_template: QWEN }));
  const refusedConfig = join(dir, "refused_config.json");
  const kv = { ...QWEN, fields: { ...(QWEN.fields as object), tool_calls: { open: "<tool_call>", close: "</tool_call>", content: "kv-lines", repeats: true, transform: { function: "{content}" } } } };
  writeFileSync(refusedConfig, JSON.stringify({ chat_template: CHAT, response_template: kv }));

  it("detect prints a third line, and a key in JSON", async () => {
    // The config's template shows no tools, so detect also says the polyfill will be used.
    const lines = (await cli(["detect", "--template", config])).stdout.split("\n");
    expect([lines[0], lines[1], lines.at(-2)]).toEqual(["hermes", "reasoning: none", "response template: compiles"]);
    expect(lines[2]).toMatch(/^polyfill: /);
    const json = JSON.parse((await cli(["detect", "--template", config, "--json"])).stdout);
    expect(json).toEqual({ format: "hermes", detected: true, reasoning: null, polyfill: { definitions: true, jsonBlock: true }, responseTemplate: { compiles: true } });
  });
  it("detect and caps name the refusal of a template that does not compile", async () => {
    const plain = (await cli(["detect", "--template", refusedConfig])).stdout;
    expect(plain).toContain("response template: refused (response_template.fields.tool_calls.content: content kv-lines)");
    const caps = JSON.parse((await cli(["caps", "--template", refusedConfig])).stdout);
    expect(caps.responseTemplate.compiles).toBe(false);
    expect(caps.responseTemplate.refusals[0]).toMatchObject({ field: "response_template.fields.tool_calls.content", construct: "content kv-lines" });
  });
  it("caps has no key for a config without one", async () => {
    const caps = JSON.parse((await cli(["caps", "--template", "chatml-tools"])).stdout);
    expect(caps).not.toHaveProperty("responseTemplate");
  });
});
