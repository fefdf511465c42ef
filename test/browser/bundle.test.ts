/**
 * Issue 11: the built package bundles for the browser as an application would bundle it (esbuild,
 * platform browser, `import ... from "chatwire"`, no stubs, no externals), and in headless Chromium
 * renders, parses and streams exactly as Node does. A second page forbids code generation with a
 * `script-src 'self'` CSP: validation still happens (the interpreting validator), and the results
 * equal Node's under --disallow-code-generation-from-strings.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXED_NOW, loadExpected, loadTemplates } from "../../scripts/render-fixtures.mjs";
import { haveChromium, launch, ORIGIN, pageWith } from "./chromium.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..", "..");
const WORK = join(ROOT, ".tmp", "browser-bundle");

// A spread of families; every conversation fixture goes through each.
const TEMPLATES = ["Qwen3-Coder", "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", "meta-llama-Llama-3.1-8B-Instruct", "Mistral-Small-3.2-24B-Instruct-2506", "deepseek-ai-DeepSeek-V3.1", "openai-gpt-oss-120b", "moonshotai-Kimi-K2", "GLM-4.6"];

function inputs(): string {
  const templates = loadTemplates().filter((t) => TEMPLATES.includes(t.name));
  const dir = join(ROOT, "fixtures", "conversations");
  const conversations = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ name: f.slice(0, -5), text: readFileSync(join(dir, f), "utf8") }));
  const cdir = join(ROOT, "fixtures", "completions");
  const completions = readdirSync(cdir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(cdir, f), "utf8")) as unknown);
  return JSON.stringify({ now: FIXED_NOW.toISOString(), templates, conversations, completions });
}

function nodeRun(entry: string, flags: string[] = []): Record<string, unknown> {
  const text = execFileSync(process.execPath, [...flags, join(HERE, "node-run.mjs"), entry, join(WORK, "inputs.json")], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(text) as Record<string, unknown>;
}

let bundle: { code: string; inputs: string[] };
let browser: Browser | undefined;

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, "node_modules"), { recursive: true });
  // The app imports the package by name; resolution goes through package.json "exports".
  symlinkSync(ROOT, join(WORK, "node_modules", "chatwire"), "dir");
  for (const f of ["page-entry.mjs", "cases.mjs"]) writeFileSync(join(WORK, f), readFileSync(join(HERE, f)));
  writeFileSync(join(WORK, "inputs.json"), inputs());
  const result = await build({
    entryPoints: [join(WORK, "page-entry.mjs")],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
    absWorkingDir: WORK,
  });
  bundle = { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
  if (haveChromium) browser = await launch();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function inPage(csp: string | undefined): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = csp === undefined ? {} : { "content-security-policy": csp };
  const page = await pageWith(browser!, {
    "/": { body: '<!doctype html><meta charset="utf-8"><title>chatwire bundle</title><script type="module" src="/app.js"></script>', type: "text/html", headers },
    "/app.js": { body: bundle.code, type: "text/javascript", headers },
    "/inputs.json": { body: readFileSync(join(WORK, "inputs.json")), type: "application/json" },
  });
  const violations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") violations.push(m.text());
  });
  await page.goto(`${ORIGIN}/`);
  await page.waitForFunction(() => (window as unknown as { __result?: string }).__result !== undefined, undefined, { timeout: 60_000 });
  const text = await page.evaluate(() => (window as unknown as { __result: string }).__result);
  await page.context().close();
  const result = JSON.parse(text) as Record<string, unknown>;
  expect(result.crash).toBeUndefined();
  return result;
}

/** The field each broken schema of cases.mjs is reported at: the wrong value where there is one. */
const SCHEMA_ERROR_FIELD: Record<string, string> = {
  misspeltType: "tools[2].function.parameters.properties.n.type",
  danglingRef: "tools[2].function.parameters",
};

describe("the built package in a browser", () => {
  it("bundles for platform browser from the package name with no Node built-in and no stub", () => {
    expect(bundle.code.length).toBeGreaterThan(0);
    const nodeish = bundle.inputs.filter((f) => /^(node:|fs$|path$|url$|stream$)|@huggingface\/gguf|@huggingface\/tokenizers/.test(f));
    expect(nodeish).toEqual([]);
    // The core entry was used (dist/core.js), not the Node one.
    expect(bundle.inputs.some((f) => f.endsWith("dist/core.js"))).toBe(true);
  });

  it("Vite, as an application would build it, bundles it without a warning", async () => {
    const { build: viteBuild, createLogger } = await import("vite");
    const warnings: string[] = [];
    const logger = createLogger("warn");
    logger.warn = (message) => void warnings.push(message);
    logger.warnOnce = (message) => void warnings.push(message);
    writeFileSync(join(WORK, "index.html"), '<!doctype html><script type="module" src="./page-entry.mjs"></script>');
    await viteBuild({ root: WORK, configFile: false, logLevel: "warn", customLogger: logger, build: { outDir: join(WORK, "vite-out"), emptyOutDir: true, target: "es2022", chunkSizeWarningLimit: 1000 } });
    // (The size advisory is raised to 1000 kB: the core is ~500 kB minified, ~150 kB gzipped, most of it
    // ajv, re2js and the interpreting validator. What this checks is resolution: no Node module, no stub.)
    expect(warnings).toEqual([]);
  }, 120_000);

  it.skipIf(!haveChromium)("renders, parses and streams in Chromium exactly as Node does (and as transformers renders)", async () => {
    const node = nodeRun(join(ROOT, "dist", "index.js"));
    const web = await inPage(undefined);
    expect(web.codegenAllowed).toBe(true);
    const conversationCount = readdirSync(join(ROOT, "fixtures", "conversations")).filter((f) => f.endsWith(".json")).length;
    expect(Object.keys(web.renders as object).length).toBe(TEMPLATES.length * conversationCount);
    expect(Object.keys(web.parses as object).length).toBeGreaterThan(100);
    expect(web).toEqual(node);
    // Independent of both: the Python reference for every pair transformers renders.
    let compared = 0;
    for (const name of TEMPLATES) {
      for (const [conversation, expected] of Object.entries(loadExpected(name).pairs)) {
        if (!("prompt" in expected)) continue;
        expect((web.renders as Record<string, unknown>)[`${name}/${conversation}`]).toBe(expected.prompt);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
    const schemaErrors = web.schemaErrors as Record<string, { code: string; field: string }>;
    for (const [key, value] of Object.entries(schemaErrors)) expect(value, key).toEqual({ code: "invalid_request", field: SCHEMA_ERROR_FIELD[key.split("/")[0]!] });
  }, 120_000);

  it.skipIf(!haveChromium)("under a script-src 'self' CSP (no eval) still rejects invalid arguments, as Node does without code generation", async () => {
    const node = nodeRun(join(ROOT, "dist", "index.js"), ["--disallow-code-generation-from-strings"]);
    const web = await inPage("script-src 'self'");
    expect(web.codegenAllowed).toBe(false);
    expect(node.codegenAllowed).toBe(false);
    expect(web).toEqual(node);
    const builtin = web.builtin as Record<string, { message: { tool_calls?: unknown[] }; errors: { type: string; message: string }[] }>;
    expect(builtin.valid!.message.tool_calls).toHaveLength(1);
    expect(builtin.invalid!.message.tool_calls).toBeUndefined();
    expect(builtin.invalid!.errors.map((e) => e.type)).toEqual(["invalid_arguments"]);
    expect(builtin.invalid!.errors[0]!.message).toMatch(/arguments\/n .*arguments\/s must match pattern/);
    const schemaErrors = web.schemaErrors as Record<string, { code: string; field: string }>;
    expect(Object.keys(schemaErrors)).toHaveLength(6);
    for (const [key, value] of Object.entries(schemaErrors)) expect(value, key).toEqual({ code: "invalid_request", field: SCHEMA_ERROR_FIELD[key.split("/")[0]!] });
  }, 120_000);
});
