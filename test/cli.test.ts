/**
 * The CLI, run in-process through run(argv, io). The model folder (tokenizer_config.json holding Qwen3's
 * template) is built in a temp dir; expected prompts come from transformers (render_jinja_template on
 * the normalised conversation, Python reference in .ref/), committed here as literals.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, type CliResult } from "./helpers/run-cli.js";

type Result = CliResult;
const cli = runCli;

/** A failure is exactly one line, `chatwire: <code>: ...`, exit 2, and nothing on stdout. */
function expectOneLineError(r: Result, code: string, mentions?: string): void {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(new RegExp(`^chatwire: ${code}: [^\\n]+\\n$`));
  if (mentions !== undefined) expect(r.stderr).toContain(mentions);
}

const dir = mkdtempSync(join(tmpdir(), "chatwire-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const model = join(dir, "qwen3-model");
mkdirSync(model);
writeFileSync(
  join(model, "tokenizer_config.json"),
  JSON.stringify({
    chat_template: readFileSync(new URL("../templates/qwen3.jinja", import.meta.url), "utf8"),
    bos_token: null,
    eos_token: "<|im_end|>",
    pad_token: "<|endoftext|>",
  }),
);

const tool = {
  name: "get_weather",
  description: "Weather for a city.",
  // Written as text below so that `1.0` reaches the CLI as a float literal.
  parameters: "PARAMS",
};
const paramsJson = '{"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "number", "default": 1.0}}, "required": ["city"]}';
const args = '"{\\"city\\": \\"Paris\\", \\"days\\": 1.0}"';

const chatRequest = JSON.stringify({
  model: "qwen3",
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
    { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: "ARGS" } }] },
    { role: "tool", tool_call_id: "call_1", content: "18C, sunny" },
  ],
  tools: [{ type: "function", function: tool }],
})
  .replace('"PARAMS"', paramsJson)
  .replace('"ARGS"', args);

const responsesRequest = JSON.stringify({
  model: "qwen3",
  instructions: "You are terse.",
  input: [
    { role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] },
    { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "ARGS" },
    { type: "function_call_output", call_id: "call_1", output: "18C, sunny" },
  ],
  tools: [{ type: "function", ...tool }],
})
  .replace('"PARAMS"', paramsJson)
  .replace('"ARGS"', args);

const chatFile = join(dir, "chat.json");
const responsesFile = join(dir, "responses.json");
writeFileSync(chatFile, chatRequest);
writeFileSync(responsesFile, responsesRequest);

/** transformers' prompt for both requests (they normalise to the same conversation). */
const HEAD =
  '<|im_start|>system\nYou are terse.\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{"type": "function", "function": {"name": "get_weather", "description": "Weather for a city.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "number", "default": 1.0}}, "required": ["city"]}}}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 1.0}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n18C, sunny\n</tool_response><|im_end|>\n';
const EXPECTED = `${HEAD}<|im_start|>assistant\n`;

describe("chatwire render", () => {
  it("renders a Chat Completions request from a model folder, exactly, with no added newline", async () => {
    const r = await cli(["render", "--template", model, "--request", chatFile]);
    expect(r).toEqual({ code: 0, stdout: EXPECTED, stderr: "" });
  });
  it("renders the equivalent Responses request to the same prompt", async () => {
    const r = await cli(["render", "--template", model, "--request", responsesFile]);
    expect(r).toEqual({ code: 0, stdout: EXPECTED, stderr: "" });
  });
  it("reads the request from stdin with - or by default", async () => {
    expect((await cli(["render", "--template", model, "--request", "-"], chatRequest)).stdout).toBe(EXPECTED);
    expect((await cli(["render", "--template", model], responsesRequest)).stdout).toBe(EXPECTED);
  });
  it("--no-generation-prompt, --var and --json", async () => {
    const r = await cli(["render", "--template", model, "--request", chatFile, "--no-generation-prompt", "--var", "enable_thinking=false", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stdout.endsWith("\n")).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual({ prompt: HEAD });
    const think = await cli(["render", "--template", model, "--var", "enable_thinking=false"], '{"messages": [{"role": "user", "content": "Hi"}]}');
    expect(think.stdout).toBe("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
  });
  it("keeps integer-like keys where the file wrote them, as transformers does after json.loads", async () => {
    // The request as written in the conversation file (the text between "request": and "options").
    const text = readFileSync(new URL("../fixtures/conversations/36-integer-like-keys.json", import.meta.url), "utf8");
    const file = join(dir, "integer-like-keys.json");
    writeFileSync(file, text.slice(text.indexOf("{", text.indexOf('"request"')), text.lastIndexOf(',\n  "options"')));
    const expected = JSON.parse(readFileSync(new URL("../fixtures/render/real-qwen3.json", import.meta.url), "utf8")).pairs["36-integer-like-keys"].prompt as string;
    expect(expected).toContain('"properties": {"row": {"type": "string", "description": "Row label"}, "10": ');
    const qwen3 = fileURLToPath(new URL("../fixtures/real-configs/qwen3", import.meta.url));
    expect(await cli(["render", "--template", qwen3, "--request", file])).toEqual({ code: 0, stdout: expected, stderr: "" });
  });
  it("built-in templates by name", async () => {
    const r = await cli(["render", "--template", "chatml-tools"], '{"messages": [{"role": "user", "content": "Hi"}]}');
    expect(r.stdout).toBe("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
  });
});

describe("bad input: one line on stderr, exit 2", () => {
  it("a request with a tool result that answers no call names the field", async () => {
    const r = await cli(["render", "--template", model], '{"messages": [{"role": "tool", "tool_call_id": "x", "content": "?"}]}');
    expectOneLineError(r, "invalid_request", "messages[0].tool_call_id");
  });
  it("an unknown role, a missing messages field, invalid JSON", async () => {
    expectOneLineError(await cli(["render", "--template", model], '{"messages": [{"role": "bot", "content": "x"}]}'), "invalid_request", "messages[0].role");
    expectOneLineError(await cli(["render", "--template", model], '{"model": "m"}'), "invalid_request", "messages");
    expectOneLineError(await cli(["render", "--template", model], "{not json"), "invalid_request", "not valid JSON");
  });
  it("a non-object tool schema", async () => {
    const body = '{"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "f", "parameters": "nope"}}]}';
    expectOneLineError(await cli(["render", "--template", model], body), "invalid_request", "tools[0].function.parameters");
  });
  it("a template that raises gives its own message on one line", async () => {
    const file = join(dir, "raises.jinja");
    writeFileSync(file, "{{ raise_exception('Only user and assistant roles are supported!\\nSecond line.') }}");
    expectOneLineError(await cli(["render", "--template", file], '{"messages": []}'), "template_error", "Only user and assistant roles are supported!\\nSecond line.");
  });
  it("missing files and templates", async () => {
    expectOneLineError(await cli(["render", "--template", join(dir, "nope")], "{}"), "io_error", "nope");
    expectOneLineError(await cli(["render", "--template", model, "--request", join(dir, "missing.json")]), "io_error", "missing.json");
  });
  it("usage mistakes", async () => {
    expectOneLineError(await cli([]), "usage");
    expectOneLineError(await cli(["frobnicate"]), "usage", "frobnicate");
    expectOneLineError(await cli(["render"]), "usage", "--template");
    expectOneLineError(await cli(["render", "--template", model, "--bogus"]), "usage", "--bogus");
    expectOneLineError(await cli(["render", "--template", model, "--var", "novalue"]), "usage", "--var");
  });
  it("help goes to stdout with exit 0", async () => {
    const r = await cli(["help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("chatwire render --template SRC");
  });
});

describe("chatwire detect and caps", () => {
  it("detect prints the format id and reasoning markers", async () => {
    const r = await cli(["detect", "--template", model]);
    expect(r).toEqual({ code: 0, stdout: "hermes\nreasoning: <think> </think>\n", stderr: "" });
    const json = await cli(["detect", "--template", "chatml-tools", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ format: "hermes", detected: true, reasoning: null, polyfill: null });
  });
  it("caps prints the probed capabilities as JSON", async () => {
    const r = await cli(["caps", "--template", model]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      origin: model,
      format: "hermes",
      variants: ["default"],
      specialTokens: { eos_token: "<|im_end|>", pad_token: "<|endoftext|>" },
      readsContentParts: false,
      knowsDeveloperRole: false,
      supportsTools: true,
      supportsSystem: true,
      variables: ["enable_thinking"],
    });
  });
});

describe("chatwire parse", () => {
  const requestFile = join(dir, "parse-request.json");
  writeFileSync(requestFile, chatRequest);
  const completion = '<think>\nNeed weather.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}\n</tool_call>';

  it("prints the message, finish_reason and errors", async () => {
    const r = await cli(["parse", "--template", model, "--request", requestFile], completion);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.finish_reason).toBe("tool_calls");
    expect(out.errors).toEqual([]);
    expect(out.message.reasoning_content.trim()).toBe("Need weather.");
    expect(out.message.tool_calls[0].function).toEqual({ name: "get_weather", arguments: '{"city": "Paris", "days": 2}' });
    expect(out.message.tool_calls[0].id).toMatch(/^call_[A-Za-z0-9]{24}$/);
  });
  it("--format instead of a template; undeclared tools are errors, their text kept", async () => {
    const other = join(dir, "other-tool.json");
    writeFileSync(other, JSON.stringify({ tools: [{ type: "function", function: { name: "get_time", parameters: { type: "object" } } }] }));
    const r = await cli(["parse", "--format", "hermes", "--request", other], completion);
    const out = JSON.parse(r.stdout);
    expect(out.message.tool_calls).toBeUndefined();
    expect(out.errors[0].type).toBe("unknown_tool");
    expect(out.message.content).toContain('"name": "get_weather"');
  });
  it("--stream prints one JSON line per delta that add up to the one-shot message", async () => {
    const r = await cli(["parse", "--template", model, "--request", requestFile, "--stream", "--chunk-size", "5"], completion);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(Object.keys(line)).toEqual(["delta", "finish_reason"]);
    expect(lines.slice(0, -1).every((l) => l.finish_reason === null)).toBe(true);
    expect(lines[lines.length - 1].finish_reason).toBe("tool_calls");
    const reasoning = lines.map((l) => l.delta.reasoning_content ?? "").join("");
    const args = lines.flatMap((l) => l.delta.tool_calls ?? []).map((c: { function: { arguments?: string } }) => c.function.arguments ?? "").join("");
    expect(reasoning.trim()).toBe("Need weather.");
    expect(args).toBe('{"city": "Paris", "days": 2}');
  });
  it("errors: unknown format, both or neither source, bad chunk size", async () => {
    expectOneLineError(await cli(["parse", "--format", "nope"], "x"), "unknown_format", "nope");
    expectOneLineError(await cli(["parse"], "x"), "usage");
    expectOneLineError(await cli(["parse", "--format", "hermes", "--template", model], "x"), "usage");
    expectOneLineError(await cli(["parse", "--format", "hermes", "--stream", "--chunk-size", "0"], "x"), "usage", "--chunk-size");
  });
});

describe("chatwire render warnings", () => {
  it("arguments that are not JSON are rendered as given, with a warning line", async () => {
    const body = JSON.stringify({
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{oops" } }] },
      ],
    });
    const r = await cli(["render", "--template", "chatml-tools", "--no-generation-prompt"], body);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('{"name": "f", "arguments": {oops}');
    expect(r.stderr).toBe("chatwire: warning: messages[1].tool_calls[0].function.arguments: not valid JSON, passed to the template as a string\n");
  });
});

describe("chatwire example", () => {
  it("renders the built-in request through Qwen3's template and parses a tool call", async () => {
    const r = await cli(["example", "--json"]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.template).toBe("qwen3");
    expect(out.format).toBe("hermes");
    expect(out.prompt).toContain("<tools>\n{\"type\": \"function\", \"function\": {\"name\": \"get_weather\"");
    expect(out.prompt.endsWith("<|im_start|>assistant\n")).toBe(true);
    expect(out.parsed.finish_reason).toBe("tool_calls");
    expect(out.parsed.errors).toEqual([]);
    expect(out.parsed.message.tool_calls[0].function).toEqual({ name: "get_weather", arguments: '{"city": "Paris", "unit": "celsius"}' });
    const text = await cli(["example"]);
    expect(text.stdout).toContain("=== prompt (built-in template \"qwen3\", format hermes) ===");
    expect(text.stdout).toContain("=== parsed (OpenAI assistant message) ===");
  });
});

describe("chatwire render --tokens", () => {
  // Ids from Python `tokenizers` for the Qwen3 template (fixtures/tokenizer/expected.json, made by the
  // fixtures scripts): `ids` keep control tokens to template text, `idsAll` let data produce them too.
  const expected = JSON.parse(readFileSync(new URL("../fixtures/tokenizer/expected.json", import.meta.url), "utf8")) as {
    template: string;
    conversation: string;
    ids: number[];
    idsAll: number[];
  }[];
  const tokenizerFile = fileURLToPath(new URL("../fixtures/tokenizer/tokenizer.json", import.meta.url));
  const withTokenizer = join(dir, "qwen3-with-tokenizer");
  mkdirSync(withTokenizer);
  writeFileSync(join(withTokenizer, "tokenizer_config.json"), readFileSync(join(model, "tokenizer_config.json")));
  writeFileSync(join(withTokenizer, "tokenizer.json"), readFileSync(tokenizerFile));

  for (const name of ["01-single-user", "22-special-token-injection"]) {
    it(`${name}: the ids Python gives, with provenance`, async () => {
      const ref = expected.find((e) => e.template === "Qwen-Qwen3-0.6B" && e.conversation === name);
      if (ref === undefined) throw new Error(`fixtures/tokenizer/expected.json has no Qwen3 x ${name}`);
      const request = JSON.stringify(JSON.parse(readFileSync(new URL(`../fixtures/conversations/${name}.json`, import.meta.url), "utf8")).request);
      const r = await cli(["render", "--template", model, "--tokens", "--tokenizer", tokenizerFile], request);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ ids: ref.ids });
      // The folder's own tokenizer.json is found without --tokenizer; --json adds the (plain) prompt.
      const both = JSON.parse((await cli(["render", "--template", withTokenizer, "--tokens", "--json", "--special-from-data"], request)).stdout);
      expect(both.ids).toEqual(ref.idsAll);
      expect(both.prompt).toBe((await cli(["render", "--template", model], request)).stdout);
    });
  }
  it("--assistant-mask: transformers' generation spans and assistant mask (fixtures/tokenizer/generation)", async () => {
    const ref = (JSON.parse(readFileSync(new URL("../fixtures/tokenizer/generation/expected.json", import.meta.url), "utf8")) as {
      tokenizer: string;
      conversation: string;
      generation: number[][];
      ids: number[];
      assistantMask: number[];
    }[]).find((c) => c.tokenizer === "qwen3" && c.conversation === "06-agent-loop")!;
    const qwen = join(dir, "qwen3-tokenizer.json");
    writeFileSync(qwen, gunzipSync(readFileSync(new URL("../fixtures/tokenizer/real/qwen3/tokenizer.json.gz", import.meta.url))));
    const template = fileURLToPath(new URL("../fixtures/tokenizer/generation/chatml-generation.jinja", import.meta.url));
    const request = JSON.stringify(JSON.parse(readFileSync(new URL("../fixtures/conversations/06-agent-loop.json", import.meta.url), "utf8")).request);
    const r = await cli(["render", "--template", template, "--tokens", "--tokenizer", qwen, "--assistant-mask"], request);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ ids: ref.ids, generation: ref.generation, assistant_mask: ref.assistantMask });
  });
  it("needs a tokenizer", async () => {
    expectOneLineError(await cli(["render", "--template", model, "--tokens"], "{}"), "usage", "--tokenizer");
    expectOneLineError(await cli(["render", "--template", model, "--tokens", "--tokenizer", chatFile], "{}"), "io_error", "tokenizer.json");
  });
});

describe("the built executable", () => {
  // Needs `npm run build` (npm test runs it first as `pretest`); skipped when dist/ has not been built.
  const bin = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
  it.skipIf(!existsSync(bin))("renders from a model folder and fails with one line and exit 2", () => {
    const ok = spawnSync(process.execPath, [bin, "render", "--template", model, "--request", responsesFile], { encoding: "utf8" });
    expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, EXPECTED, ""]);
    const bad = spawnSync(process.execPath, [bin, "render", "--template", model], { input: '{"messages": [{"role": "bot"}]}', encoding: "utf8" });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/^chatwire: invalid_request: messages\[0\]\.role: [^\n]+\n$/);
  });
});
