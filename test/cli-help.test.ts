/**
 * README's CLI block is `chatwire help`, each command's option table (from which parseArgs, the usage
 * line and --help are made) is whole, and the CLI behaves as a new user meets it (issues 11, 21).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import { COMMANDS, USAGE, run, usageLine } from "../src/cli/run.js";

async function cli(argv: string[], stdin = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, { stdin: Readable.from([Buffer.from(stdin, "utf8")]), stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr };
}

describe("CLI help", () => {
  it("README's CLI block is exactly `chatwire help` (regenerate: node scripts/readme-cli.mjs)", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block = /## CLI\n\n```\n([^]*?)```\n/.exec(readme)?.[1];
    expect(block).toBe(USAGE);
  });

  // One table per command feeds parseArgs, the usage line and --help (src/cli/help.ts); what is left
  // to check is that each table is whole.
  for (const [name, { spec }] of Object.entries(COMMANDS)) {
    it(`${name}: its option table is whole, and the usage line shows every option once`, () => {
      for (const [option, entry] of Object.entries(spec.options)) {
        expect(entry.description, `--${option}`).toMatch(/\S/);
        // An option with a value says what the value is and shows one, written with that option only.
        expect(entry.value === undefined, `--${option} value`).toBe(entry.type === "boolean");
        if (entry.type === "string") expect([...(entry.example ?? "").matchAll(/(?:^|\s)--([a-z][a-z-]*)/g)].map((m) => m[1]), `--${option} example`).toEqual(expect.arrayContaining([option]));
        for (const other of (entry.example ?? "").matchAll(/(?:^|\s)--([a-z][a-z-]*)/g)) expect(other[1]).toBe(option);
        if (entry.within !== undefined) expect(Object.keys(spec.options)).toContain(entry.within);
      }
      for (const option of [...(spec.usage?.required ?? []), ...(spec.usage?.alternatives ?? []).flat()]) expect(Object.keys(spec.options)).toContain(option);
      const inUsage = [...usageLine(name, spec).matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]);
      expect(inUsage.slice().sort()).toEqual(Object.keys(spec.options).sort());
    });
  }

  it("each command's --help describes every option it accepts, with examples; docs/cli.md is that text", async () => {
    const docs = readFileSync(new URL("../docs/cli.md", import.meta.url), "utf8");
    for (const [name, command] of Object.entries(COMMANDS)) {
      const help = await cli([name, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout.startsWith(`usage: ${usageLine(name, command.spec)}\n`)).toBe(true);
      for (const [option, entry] of Object.entries(command.spec.options)) {
        expect(help.stdout, `${name} --${option}`).toMatch(new RegExp(`\\n  --${option}\\b[^\\n]* \\S`));
        if (entry.example !== undefined) expect(help.stdout.replace(/\n +/g, " "), `${name} --${option} example`).toContain(`e.g. ${entry.example}`);
      }
      expect(help.stdout).toMatch(new RegExp(`examples:\\n  chatwire ${name}|\\| chatwire ${name}`));
      expect(docs, `docs/cli.md has ${name} --help`).toContain(help.stdout);
      expect((await cli(["help", name])).stdout).toBe(help.stdout);
    }
  });

  it("the table's types are what the command reads: a flag takes no value, an option with a value needs one, --var repeats", async () => {
    expect((await cli(["detect", "--template", "qwen3", "--json=yes"])).stderr).toMatch(/^chatwire: usage: .*--json.* does not take an argument/);
    expect((await cli(["detect", "--template"])).stderr).toMatch(/^chatwire: usage: .*--template.* argument missing/);
    const twice = await cli(["render", "--template", "qwen3", "--var", "a=1", "--var", "enable_thinking=false"], '{"messages": [{"role": "user", "content": "hi"}]}');
    expect(twice.stdout).toContain("<think>\n\n</think>");
  });

  it("--version prints the package's version; a mistyped command or option gets a suggestion", async () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(await cli(["--version"])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
    const command = await cli(["rendr", "--template", "qwen3"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe('chatwire: usage: unknown command "rendr"; did you mean `render`? (try `chatwire help`)\n');
    const option = await cli(["render", "--tempalte", "qwen3"]);
    expect(option.stderr).toBe("chatwire: usage: unknown option --tempalte; did you mean --template? (`--help` lists the options)\n");
    expect((await cli(["serve", "--backend-knd", "llamacpp"])).stderr).toContain("did you mean --backend-kind?");
    expect((await cli(["help", "rendr"])).stderr).toBe('chatwire: usage: unknown command "rendr"; did you mean `render`? (try `chatwire help`)\n');
    expect((await cli(["help", "toString"])).code).toBe(2);
    expect((await cli(["render", "-t", "qwen3"])).stderr).toBe("chatwire: usage: unknown option -t: options have long names only (`--help` lists them)\n");
    expect((await cli(["detect", "qwen3"])).stderr).toBe('chatwire: usage: unexpected argument "qwen3": a value follows its option\'s name (--template qwen3); `--help` lists the options\n');
    // Nothing near: no guess.
    expect((await cli(["render", "--zzzzzz"])).stderr).toBe("chatwire: usage: unknown option --zzzzzz (`--help` lists the options)\n");
  });

  it("--var takes JSON only: Python literals and bare words are refused with the JSON spelling", async () => {
    const request = '{"messages": [{"role": "user", "content": "hi"}]}';
    const python = await cli(["render", "--template", "qwen3", "--var", "enable_thinking=False"], request);
    expect(python).toEqual({ code: 2, stdout: "", stderr: 'chatwire: usage: --var enable_thinking: "False" is not JSON; write enable_thinking=false (JSON), not False (Python)\n' });
    const word = await cli(["render", "--template", "qwen3", "--var", "effort=nope"], request);
    expect(word.stderr).toBe(`chatwire: usage: --var effort: "nope" is not JSON; a string needs JSON quotes: --var effort='"nope"'\n`);
    const json = await cli(["render", "--template", "qwen3", "--var", "enable_thinking=false"], request);
    expect(json.code).toBe(0);
    expect(json.stdout).toContain("<think>\n\n</think>");
  });

  it("caps takes --json; inspect refuses --port with --out", async () => {
    const caps = await cli(["caps", "--template", "qwen3", "--json"]);
    expect(caps.code).toBe(0);
    expect(caps.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(caps.stdout).format).toBe("hermes");
    const inspect = await cli(["inspect", "--out", join(tmpdir(), "chatwire-never-written"), "--port", "7000"]);
    expect(inspect.code).toBe(2);
    expect(inspect.stderr).toMatch(/^chatwire: usage: --out writes the static page .*--port need the served page/);
  });

  // inspect --out needs the built page script (npm test builds it first).
  it.skipIf(!existsSync(new URL("../dist/inspect/inspector.js", import.meta.url)))("a folder inspect --out cannot make is an io_error, not a chatwire bug", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "chatwire-out-")), "a-file");
    writeFileSync(file, "");
    const unwritable = await cli(["inspect", "--out", join(file, "inspector")]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^chatwire: io_error: ENOTDIR/);
  });

  it("a file that is not Jinja fails at load with one invalid_template line giving file:line:column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-bad-"));
    const text = "Some notes.\nThe {% if %} tag is broken.\n";
    // Whatever the file is called (a README given by mistake too), and a model folder's chat_template.jinja.
    mkdirSync(join(dir, "model"));
    const files = [join(dir, "notes.jinja"), join(dir, "README.md"), join(dir, "model", "chat_template.jinja")];
    for (const file of files) writeFileSync(file, text);
    for (const [template, file] of [...files.slice(0, 2).map((f) => [f, f]), [join(dir, "model"), files[2]]] as [string, string][]) {
      for (const command of ["detect", "check", "render"]) {
        const r = await cli([command, "--template", template], '{"messages": [{"role": "user", "content": "hi"}]}');
        expect(r).toEqual({ code: 2, stdout: "", stderr: `chatwire: invalid_template: ${file}:2:11: Unexpected token: CloseStatement\n` });
      }
    }
    // In a JSON config the line and column are the template string's own, not the file's: named so.
    const config = join(dir, "tokenizer_config.json");
    writeFileSync(config, JSON.stringify({ chat_template: text }));
    expect((await cli(["detect", "--template", config])).stderr).toBe(`chatwire: invalid_template: ${config}: chat template "default", line 2, column 11: Unexpected token: CloseStatement\n`);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a tokenizer.json that is not JSON is named with line:column", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-tok-"));
    const file = join(dir, "tokenizer.json");
    writeFileSync(file, '{\n "model": {\n  "type": "BPE",,\n}}');
    const r = await cli(["render", "--template", "qwen3", "--tokens", "--tokenizer", file], '{"messages": [{"role": "user", "content": "hi"}]}');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`chatwire: io_error: ${file}:3:17: not valid JSON: expected a property name\n`);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a request or a config that is not JSON is named with FILE:line:column", async () => {
    const r = await cli(["render", "--template", "qwen3"], '{\n  "messages": [\n    {"role": "user", "content": "hi"},\n  ]\n}');
    expect(r).toEqual({ code: 2, stdout: "", stderr: 'chatwire: invalid_request: stdin:4:3: not valid JSON: unexpected character "]"\n' });
    const dir = mkdtempSync(join(tmpdir(), "chatwire-cfg-"));
    const config = join(dir, "tokenizer_config.json");
    writeFileSync(config, '{\n  "chat_template": "x",\n}');
    expect((await cli(["detect", "--template", config])).stderr).toBe(`chatwire: invalid_template: ${config}:3:1: not valid JSON: expected a property name\n`);
    rmSync(dir, { recursive: true, force: true });
  });

  it("an error about a request field, a schema's included, says where it is in the file (line:column)", async () => {
    const text = '{"messages": [{"role": "user", "content": "hi"}],\n "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object",\n   "properties": {"a": {"type": "strng"}}}}}]}';
    const schema = await cli(["render", "--template", "qwen3"], text);
    const column = text.split("\n")[2]!.indexOf('"strng"') + 1;
    expect(schema.stderr).toMatch(new RegExp(`^chatwire: invalid_request: tools\\[0\\]\\.function\\.parameters: not a valid JSON Schema: /properties/a/type: "strng" is not a JSON Schema type \\(allowed: [^)]*\\) \\(at stdin:3:${column}\\)\n$`));
    const field = await cli(["render", "--template", "qwen3"], '{"messages": [\n  {"role": "user", "content": 5}]}');
    expect(field.stderr).toBe(`chatwire: invalid_request: messages[0].content: must be a string, null or an array of content parts (at stdin:2:31)\n`);
    // The same from a --request file, for every command that reads one.
    const dir = mkdtempSync(join(tmpdir(), "chatwire-req-"));
    const file = join(dir, "req.json");
    writeFileSync(file, text);
    for (const argv of [["render"], ["grammar"], ["parse"], ["parse", "--stream"]]) {
      const r = await cli([...argv, "--template", "qwen3", "--request", file], "");
      expect(r.stderr).toMatch(new RegExp(`: "strng" is not a JSON Schema type \\(allowed: [^)]*\\) \\(at ${file.replaceAll("/", "\\/")}:3:${column}\\)\n$`));
      expect(r.code).toBe(2);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("detect and check say the same about a template with no tool syntax: json-block by fallback, through the polyfill", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-plain-"));
    const file = join(dir, "plain.jinja");
    writeFileSync(file, "{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}");
    const detect = (await cli(["detect", "--template", file])).stdout.split("\n");
    const check = (await cli(["check", "--template", file])).stdout.split("\n");
    expect(detect[2]).toBe("format: none detected in the template; json-block is the fallback");
    expect(check[1]).toMatch(/^format: none detected \(json-block is the fallback\)/);
    const polyfill = detect.find((l) => l.startsWith("polyfill: "));
    expect(polyfill).toContain("json-block calling instruction");
    expect(check).toContain(polyfill);
    rmSync(dir, { recursive: true, force: true });
  });

  it("every command that loads a template takes --template-name", () => {
    for (const { spec } of Object.values(COMMANDS)) {
      if (spec.options.template !== undefined) expect(spec.options["template-name"]).toBeDefined();
    }
  });
});

describe("the new flags", () => {
  const tools = { messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }] };

  it("render --polyfill never gives the template's own bytes for a template without tools; auto adds the tool prompt", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-flags-"));
    const template = join(dir, "plain.jinja");
    writeFileSync(template, "{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}");
    writeFileSync(join(dir, "req.json"), JSON.stringify(tools));
    const never = await cli(["render", "--template", template, "--request", join(dir, "req.json"), "--polyfill", "never"]);
    const auto = await cli(["render", "--template", template, "--request", join(dir, "req.json")]);
    expect(never).toEqual({ code: 0, stdout: "[user] hi\n", stderr: "" });
    expect(auto.stdout).not.toBe(never.stdout);
    expect(auto.stdout).toContain('"name": "f"');
    const bad = await cli(["render", "--template", template, "--request", join(dir, "req.json"), "--polyfill", "sometimes"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chatwire: usage: --polyfill must be auto, always or never/);
    rmSync(dir, { recursive: true, force: true });
  });

  it("parse --prompt-suffix starts the output inside the reasoning block the prompt opened", async () => {
    const completion = "Let me think.</think>The answer.";
    const without = JSON.parse((await cli(["parse", "--format", "deepseek-r1"], completion)).stdout);
    const withSuffix = JSON.parse((await cli(["parse", "--format", "deepseek-r1", "--prompt-suffix", "<｜Assistant｜><think>\n"], completion)).stdout);
    expect(withSuffix.message).toEqual({ role: "assistant", content: "The answer.", reasoning_content: "Let me think." });
    expect(without.message).not.toEqual(withSuffix.message);
  });

  it("parse --reasoning-calls text keeps a call written inside reasoning as reasoning, one-shot and streamed", async () => {
    const completion = '<think>Try <tool_call>{"name": "f", "arguments": {}}</tool_call>.</think>Done.';
    const byDefault = JSON.parse((await cli(["parse", "--format", "hermes"], completion)).stdout);
    expect(byDefault.message.tool_calls).toHaveLength(1);
    const text = JSON.parse((await cli(["parse", "--format", "hermes", "--reasoning-calls", "text"], completion)).stdout);
    expect(text.message).toEqual({ role: "assistant", content: "Done.", reasoning_content: 'Try <tool_call>{"name": "f", "arguments": {}}</tool_call>.' });
    const lines = (await cli(["parse", "--format", "hermes", "--reasoning-calls", "text", "--stream", "--chunk-size", "3"], completion)).stdout.trim().split("\n");
    const streamed = lines.map((l) => JSON.parse(l) as { delta: { reasoning_content?: string; tool_calls?: unknown } });
    expect(streamed.map((l) => l.delta.reasoning_content ?? "").join("")).toBe(text.message.reasoning_content);
    expect(streamed.some((l) => l.delta.tool_calls !== undefined)).toBe(false);
    const bad = await cli(["parse", "--format", "hermes", "--reasoning-calls", "never"], completion);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--reasoning-calls must be call or text/);
  });

  it("parse --var passes render variables (Qwen3.5's prompt opens <think> unless enable_thinking=false)", async () => {
    const completion = "Plain answer.";
    const template = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "templates", "Qwen3.5-4B.jinja");
    const thinking = JSON.parse((await cli(["parse", "--template", template], completion)).stdout);
    const result = JSON.parse((await cli(["parse", "--template", template, "--var", "enable_thinking=false"], completion)).stdout);
    expect(thinking.message).toEqual({ role: "assistant", content: "", reasoning_content: "Plain answer." });
    expect(result.message).toEqual({ role: "assistant", content: "Plain answer." });
    const misuse = await cli(["parse", "--format", "hermes", "--var", "x=1"], completion);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toMatch(/need --template/);
  });
});
