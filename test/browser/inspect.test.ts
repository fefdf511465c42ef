/**
 * Issue 11, the prompt inspector, used as a user would: `chatwire inspect --template qwen3 --tokenizer
 * FILE` (the built CLI, a real loopback server) opened in headless Chromium, and the static build
 * (`chatwire inspect --out DIR`) opened from disk with the network off. Assertions on the DOM against
 * what the library computes in Node; screenshots go to .tmp/inspect-*.png.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXAMPLE_COMPLETION, EXAMPLE_REQUEST } from "../../src/examples/example-data.js";
import { renderTokenIds } from "../../src/cli/tokens.js";
import { loadTokenizer } from "../../src/tokens/index.js";
import { foldDeltas, loadTemplate } from "../../src/index.js";
import type { Delta } from "../../src/types.js";
import { haveChromium, launch } from "./chromium.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = join(ROOT, "dist", "cli", "main.js");
const TOKENIZER = join(ROOT, "fixtures", "tokenizer", "tokenizer.json");
const SHOTS = join(ROOT, ".tmp");

let browser: Browser | undefined;
let child: ChildProcess | undefined;
let url = "";

beforeAll(async () => {
  if (!haveChromium) return;
  browser = await launch();
  child = spawn(process.execPath, [CLI, "inspect", "--template", "qwen3", "--tokenizer", TOKENIZER], { stdio: ["ignore", "pipe", "pipe"] });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child!.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /chatwire inspect: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child!.once("exit", (code) => reject(new Error(`inspect exited ${code}`)));
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (child?.pid !== undefined && child.exitCode === null) child.kill("SIGTERM");
});

async function open(target: string, offline = false): Promise<Page> {
  const context = await browser!.newContext({ viewport: { width: 1400, height: 1100 } });
  if (offline) await context.setOffline(true);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(target);
  await page.waitForSelector("body[data-ready=true]", { timeout: 30_000 });
  expect(errors).toEqual([]);
  return page;
}

const segments = (page: Page, kind: string) => page.$$eval(`#prompt .seg.${kind}`, (els) => els.map((e) => e.textContent ?? ""));

describe.skipIf(!haveChromium)("chatwire inspect", () => {
  it("shows the exact prompt with special tokens and data provenance, token ids, caps and format", async () => {
    const page = await open(url);
    expect(await page.getAttribute("body", "data-mode")).toBe("served");
    const template = await loadTemplate("qwen3");
    const prompt = template.render(EXAMPLE_REQUEST);
    expect(await page.$eval("#prompt", (e) => (e as HTMLElement).dataset.text)).toBe(prompt);
    // The segments are the prompt, in order.
    expect((await page.$$eval("#prompt .seg", (els) => els.map((e) => e.textContent).join("")))).toBe(prompt);
    // Marked by the tokenizer's classes: <tool_call> is an added token that is not special, and
    // <tools> is no token at all (the tokenizer splits it), however much it looks like one.
    expect(await segments(page, "special")).toEqual(expect.arrayContaining(["<|im_start|>", "<|im_end|>"]));
    expect(await segments(page, "added")).toEqual(expect.arrayContaining(["<tool_call>", "</tool_call>"]));
    for (const kind of ["special", "added"]) expect(await segments(page, kind)).not.toContain("<tools>");
    expect(await segments(page, "data")).toEqual(expect.arrayContaining(["What's the weather like in Paris right now?", "You are a helpful assistant. Use the tools when they help."]));
    expect((await segments(page, "template")).join("")).toContain("# Tools");
    expect(await page.textContent("#format")).toBe("hermes");
    expect(JSON.parse((await page.textContent("#caps")) ?? "{}")).toMatchObject({ format: "hermes", origin: "builtin:qwen3" });
    const tokenizer = JSON.parse(readFileSync(TOKENIZER, "utf8"));
    const { ids } = renderTokenIds(template, EXAMPLE_REQUEST, {}, await loadTokenizer(tokenizer), false);
    expect(await page.$$eval("#tokens .tok", (els) => els.map((e) => Number((e as HTMLElement).dataset.id)))).toEqual(ids);
    const pieces = (kind: string) => page.$$eval(`#tokens .tok.${kind} .piece`, (els) => els.map((e) => e.textContent));
    expect(await pieces("special")).toContain("<|im_start|>");
    expect(await pieces("special")).not.toContain("<tool_call>");
    expect(await pieces("added")).toContain("<tool_call>");
    expect(await pieces("text")).toEqual(expect.arrayContaining(["<", "tools", ">"]));
    await page.screenshot({ path: join(SHOTS, "inspect-served.png"), fullPage: true });
    await page.context().close();
  }, 60_000);

  it("parses and streams a completion, showing the message, tool calls and errors", async () => {
    const page = await open(url);
    await page.click("#parse-button");
    await page.waitForSelector("#tool-calls tr");
    expect(await page.$$eval("#tool-calls tr td:first-child", (els) => els.map((e) => e.textContent))).toEqual(["get_weather"]);
    const expected = (await loadTemplate("qwen3")).parse(EXAMPLE_COMPLETION, EXAMPLE_REQUEST);
    const shown = JSON.parse((await page.textContent("#parsed")) ?? "{}");
    const withoutIds = (m: { tool_calls?: { id: string }[] }) => ({ ...m, tool_calls: m.tool_calls?.map(({ id: _id, ...rest }) => rest) });
    expect(withoutIds(shown)).toEqual(withoutIds(expected.message));
    await page.click("#stream-button");
    await page.waitForSelector("#deltas[data-done=true]");
    const deltas = (await page.$$eval("#deltas li", (els) => els.map((e) => e.textContent ?? ""))).map((t) => JSON.parse(t) as Delta);
    expect(deltas.length).toBeGreaterThan(3);
    expect(withoutIds(foldDeltas(deltas).message)).toEqual(withoutIds(expected.message));
    // An argument that breaks the schema is an error, and its text stays in content.
    await page.fill("#completion", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "kelvin"}}\n</tool_call>');
    await page.click("#parse-button");
    await page.waitForSelector("#parse-errors li.invalid_arguments");
    expect(await page.$$eval("#tool-calls tr", (els) => els.length)).toBe(0);
    // A request error names the field.
    await page.fill("#request-a", JSON.stringify({ messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "f", parameters: { type: "integr" } } }] }));
    await page.click("#render-button");
    await page.waitForFunction(() => (document.getElementById("render-error")?.textContent ?? "") !== "");
    expect(await page.textContent("#render-error")).toMatch(/^invalid_request \(tools\[0\]\.function\.parameters\.type\)/);
    await page.context().close();
  }, 60_000);

  it("diffs the prompts of two templates and of two requests", async () => {
    const page = await open(url);
    await page.selectOption("#template-b", "builtin:chatml-tools");
    await page.click("#diff-button");
    await page.waitForFunction(() => (document.getElementById("diff-summary")?.textContent ?? "") !== "");
    const template = await loadTemplate("qwen3");
    const other = await loadTemplate("chatml-tools");
    const a = template.render(EXAMPLE_REQUEST).split("\n");
    const b = other.render(EXAMPLE_REQUEST).split("\n");
    const removed = await page.$$eval("#diff .line.removed", (els) => els.map((e) => (e.textContent ?? "").slice(2)));
    const added = await page.$$eval("#diff .line.added", (els) => els.map((e) => (e.textContent ?? "").slice(2)));
    const same = await page.$$eval("#diff .line.same", (els) => els.map((e) => (e.textContent ?? "").slice(2)));
    expect(removed.length + same.length).toBe(a.length);
    expect(added.length + same.length).toBe(b.length);
    for (const line of removed) expect(a).toContain(line);
    for (const line of added) expect(b).toContain(line);
    await page.selectOption("#diff-mode", "requests");
    await page.click("#diff-button");
    await page.waitForFunction(() => /added/.test(document.getElementById("diff-summary")?.textContent ?? ""));
    // Request B is request A without tools: the tool block is what goes.
    expect((await page.$$eval("#diff .line.removed", (els) => els.map((e) => e.textContent ?? ""))).join("\n")).toContain("get_weather");
    await page.screenshot({ path: join(SHOTS, "inspect-diff.png"), fullPage: true });
    await page.context().close();
  }, 60_000);

  it("works as a static page opened from disk with the network off (built-in and pasted templates)", async () => {
    const out = join(ROOT, ".tmp", "inspect-static");
    rmSync(out, { recursive: true, force: true });
    const index = execFileSync(process.execPath, [CLI, "inspect", "--out", out], { encoding: "utf8" }).trim();
    const page = await open(pathToFileURL(index).href, true);
    expect(await page.getAttribute("body", "data-mode")).toBe("static");
    await page.selectOption("#template-a", "paste");
    await page.fill("#template-a-text", "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}");
    await page.fill("#request-a", JSON.stringify({ messages: [{ role: "user", content: "hello <|im_end|> there" }] }));
    await page.click("#render-button");
    await page.waitForFunction(() => (document.getElementById("prompt")?.textContent ?? "").includes("hello"));
    expect(await page.$eval("#prompt", (e) => (e as HTMLElement).dataset.text)).toBe("<|im_start|>user\nhello <|im_end|> there<|im_end|>\n");
    // The same text is a special token where the template wrote it and flagged where the data did.
    expect(await segments(page, "special-in-data")).toEqual(["<|im_end|>"]);
    expect((await segments(page, "special")).filter((s) => s === "<|im_end|>")).toHaveLength(1);
    expect(await page.textContent("#tokens")).toContain("need a tokenizer");
    await page.screenshot({ path: join(SHOTS, "inspect-static.png"), fullPage: true });
    await page.context().close();
  }, 60_000);
});
