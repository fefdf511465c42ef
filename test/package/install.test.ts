/**
 * Issue 11, package hygiene: the tarball `npm pack` makes has dist/, LICENSE, README and the template
 * licenses; installed into a fresh project outside the repo (its dependencies from the registry or the
 * npm cache, optional peers not installed), it works from ESM and CJS, a broken `.gguf` is a typed
 * error from chatwire's own reader (no optional package needed), and strict TypeScript sees the
 * exported types: a misspelt request field is a compile error. Uses the dist/ that `npm test` just
 * built (pretest); `scripts/check-pack.sh` proves `npm pack` of a clean clone builds dist/ itself.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
let app: string;
let files: string[];

function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
}

beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), "chatwire-install-"));
  const packed = JSON.parse(npm(["pack", "--ignore-scripts", "--json", "--pack-destination", app], ROOT)) as { filename: string; files: { path: string }[] }[];
  files = packed[0]!.files.map((f) => f.path);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "fresh-app", private: true, type: "module" }));
  npm(["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", `./${packed[0]!.filename}`], app);
}, 120_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

const SCRIPT_BODY = `
  const t = await cw.loadTemplate("qwen3");
  const request = { messages: [{ role: "user", content: "Weather in Oslo?" }], tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }] };
  const prompt = t.render(request);
  const parsed = t.parse('<tool_call>\\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\\n</tool_call>', request, { idGenerator: () => "call_1" });
  let gguf;
  try { await cw.loadTemplate("model.gguf"); } catch (e) { gguf = e.code; }
  const fs = await import("node:fs");
  fs.writeFileSync("model.gguf", "GGUF");
  try { await cw.loadTemplate("model.gguf"); } catch (e) { gguf = e.code + ": " + e.message; }
  console.log(JSON.stringify({ prompt: prompt.length, format: t.format, calls: parsed.message.tool_calls, gguf }));
`;

function runNode(args: string[]): Record<string, unknown> {
  const out = execFileSync(process.execPath, args, { cwd: app, encoding: "utf8" });
  return JSON.parse(out.trim().split("\n").pop() as string) as Record<string, unknown>;
}

describe("the packed and installed package", () => {
  it("ships dist/ (ESM, CJS, types), LICENSE, README and the bundled template's license, and nothing else", () => {
    for (const f of ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/core.js", "dist/core.cjs", "dist/server.js", "dist/cli/main.js", "LICENSE", "README.md", "package.json", "templates/LICENSE-Apache-2.0.txt", "templates/NOTICE"]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /^(src|test|fixtures|scripts|bench)\//.test(f))).toEqual([]);
    // The README's links and `--help`'s references: docs/ ships. No source maps (see tsup.config.ts).
    expect(files).toEqual(expect.arrayContaining(["docs/cli.md", "docs/server.md", "docs/formats.md"]));
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    for (const link of readme.matchAll(/\]\((?!https?:|#)([^)#]+)/g)) expect(files, `README links ${link[1]}`).toContain(link[1]);
  });

  it("has no install-time script that needs files it does not ship (scripts/ is not shipped)", () => {
    const pkg = JSON.parse(readFileSync(join(app, "node_modules", "chatwire", "package.json"), "utf8")) as { scripts?: Record<string, string> };
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(pkg.scripts?.[hook], hook).toBeUndefined();
  });

  it("works from ESM and CJS alike, with the optional peers not installed", () => {
    const esm = runNode(["--input-type=module", "-e", `import * as cw from "chatwire";\n${SCRIPT_BODY}`]);
    const cjs = runNode(["-e", `(async () => { const cw = require("chatwire");\n${SCRIPT_BODY} })()`]);
    expect(esm).toEqual(cjs);
    expect(esm.format).toBe("hermes");
    expect(esm.calls).toEqual([{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Oslo"}' } }]);
    expect(esm.gguf).toMatch(/^invalid_template: .*model\.gguf/);
  });

  it("runs the CLI without the optional peers (render --tokens then says what is missing)", () => {
    const bin = join(app, "node_modules", ".bin", "chatwire");
    const example = spawnSync(bin, ["example", "--json"], { cwd: app, encoding: "utf8" });
    expect(example.stderr).toBe("");
    expect(JSON.parse(example.stdout).parsed.message.tool_calls[0].function.name).toBe("get_weather");
    const tokens = spawnSync(bin, ["render", "--template", "qwen3", "--tokens", "--tokenizer", "missing.json", "--request", "-"], { cwd: app, encoding: "utf8", input: '{"messages": []}' });
    expect(tokens.status).toBe(2);
    expect(tokens.stderr).toMatch(/^chatwire: [a-z_]+: .+\n$/);
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(spawnSync(bin, ["--version"], { cwd: app, encoding: "utf8" }).stdout).toBe(`${pkg.version}\n`);
    const help = spawnSync(bin, ["serve", "--help"], { cwd: app, encoding: "utf8" });
    expect(help.stdout).toContain("--backend-body JSON");
    expect(help.stdout).toContain("examples:\n  chatwire serve");
  });

  it("type-checks under strict TypeScript with the exported types, and a misspelt field is a compile error", () => {
    writeFileSync(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022", noEmit: true, types: [], skipLibCheck: false }, files: ["ok.ts", "ok.cts"] }));
    writeFileSync(
      join(app, "ok.ts"),
      `import { loadTemplate, ChatwireError, type ChatRequest, type ResponsesRequest, type TemplateConfig, type TemplateParseOptions, type PolyfillMode, type ReasoningMarkers, type ParseResult, type Delta } from "chatwire";
const config: TemplateConfig = { chat_template: "{{ messages[0].content }}" };
const polyfill: PolyfillMode = "never";
const t = await loadTemplate(config);
const chat: ChatRequest = { model: "m", messages: [{ role: "user", content: "hi" }] };
const responses: ResponsesRequest = { input: "hi" };
const prompt: string = t.render(chat, { polyfill }) + t.render(responses) + t.render({ messages: [{ role: "user", content: "x" }] });
const options: TemplateParseOptions = { idGenerator: () => "call_1" };
const result: ParseResult = t.parse(prompt, chat, options);
const deltas: Delta[] = t.streamParser(chat).push("x");
const markers: ReasoningMarkers | undefined = undefined;
export const used = [result, deltas, markers, ChatwireError];
`,
    );
    writeFileSync(join(app, "ok.cts"), `import cw = require("chatwire");\nexport const t: Promise<cw.ChatTemplate> = cw.loadTemplate({ chat_template: "x" });\n`);
    const ok = spawnSync(process.execPath, [TSC, "-p", "."], { cwd: app, encoding: "utf8" });
    expect(ok.stdout + ok.stderr).toBe("");
    expect(ok.status).toBe(0);

    writeFileSync(join(app, "bad.ts"), `import { templateFromConfig } from "chatwire";\ntemplateFromConfig({ chat_template: "x" }).render({ mesages: [] });\n`);
    writeFileSync(join(app, "tsconfig.bad.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["bad.ts"] }));
    const bad = spawnSync(process.execPath, [TSC, "-p", "tsconfig.bad.json"], { cwd: app, encoding: "utf8" });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/bad\.ts\(2,\d+\): error TS\d+:.*(mesages|messages)/);
  });
});
