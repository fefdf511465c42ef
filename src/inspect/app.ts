/**
 * The prompt inspector page (browser side; plain DOM, no framework). Everything runs on the core
 * bundle in the page: rendering, provenance, caps, parsing, streaming, diffs. Served by `chatwire
 * inspect` it also gets the --template template and token ids from the server (api/*); opened as a
 * static file it works offline with the built-in templates and pasted ones.
 */
import { loadTemplate, listBuiltins, readJson, type ChatTemplate, type Delta, type TemplateConfig } from "../core.js";
import { diffLines } from "./diff.js";
import { annotatePrompt } from "./provenance.js";
import type { InspectSession, TokensRequest, TokensResponse } from "./session.js";
import { EXAMPLE_COMPLETION, EXAMPLE_REQUEST } from "../examples/example-data.js";

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`#${id} missing`);
  return el as T;
};

let session: InspectSession = { tokenizer: false, addedTokens: [] };

function el(tag: string, attrs: Record<string, string> = {}, text?: string): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function describeError(err: unknown): string {
  const e = err as { code?: string; field?: string; message?: string };
  return e.code ? `${e.code}${e.field ? ` (${e.field})` : ""}: ${e.message}` : String(e.message ?? err);
}

/** The template chosen on side `a` or `b`: served, a built-in, or pasted text. */
async function templateOf(side: "a" | "b"): Promise<{ template: ChatTemplate; config: TemplateConfig; origin: string; templateName?: string }> {
  const choice = $<HTMLSelectElement>(`template-${side}`).value;
  if (choice === "served" && session.template) {
    const t = session.template;
    const template = await loadTemplate(t.config, t.templateName ? { templateName: t.templateName } : {});
    return { template, config: t.config, origin: t.origin, ...(t.templateName ? { templateName: t.templateName } : {}) };
  }
  if (choice.startsWith("builtin:")) {
    const template = await loadTemplate(choice.slice("builtin:".length));
    return { template, config: { chat_template: template.source, ...template.specialTokens }, origin: template.origin };
  }
  const config: TemplateConfig = { chat_template: $<HTMLTextAreaElement>(`template-${side}-text`).value };
  const bos = $<HTMLInputElement>(`bos-${side}`).value;
  const eos = $<HTMLInputElement>(`eos-${side}`).value;
  if (bos) config.bos_token = bos;
  if (eos) config.eos_token = eos;
  return { template: await loadTemplate(config), config, origin: "pasted" };
}

function requestOf(side: "a" | "b"): unknown {
  return readJson($<HTMLTextAreaElement>(`request-${side}`).value);
}

function renderOptions(): { addGenerationPrompt: boolean; polyfill: "auto" | "always" | "never" } {
  return { addGenerationPrompt: $<HTMLInputElement>("generation-prompt").checked, polyfill: $<HTMLSelectElement>("polyfill").value as "auto" | "always" | "never" };
}

function showError(where: string, err: unknown): void {
  $(where).textContent = err === undefined ? "" : describeError(err);
}

async function renderPrompt(): Promise<void> {
  const prompt = $("prompt");
  prompt.replaceChildren();
  if (session.tokenizer) $("tokens").replaceChildren();
  showError("render-error", undefined);
  try {
    const { template, config, origin, templateName } = await templateOf("a");
    const request = requestOf("a");
    const options = renderOptions();
    const annotated = annotatePrompt(template, request, options, session.tokenizer ? session.addedTokens : undefined);
    for (const seg of annotated.segments) prompt.append(el("span", { class: `seg ${seg.kind}` }, seg.text));
    prompt.dataset.text = annotated.prompt;
    $("marks-note").textContent = session.tokenizer ? "" : "(no tokenizer: tokens marked by their shape, a guess)";
    $("provenance-note").textContent = annotated.provenance ? "" : "This template reads the text it prints, so template/data provenance is not shown.";
    $("format").textContent = template.formatFor(request, options);
    $("caps").textContent = JSON.stringify({ origin, format: template.format, variants: Object.keys(template.variants), specialTokens: template.specialTokens, ...template.caps }, null, 2);
    if (session.tokenizer) await showTokens({ template: config, ...(templateName ? { templateName } : {}), request, ...options });
  } catch (err) {
    showError("render-error", err);
  }
}

async function showTokens(body: TokensRequest): Promise<void> {
  const response = await fetch("api/tokens", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const result = (await response.json()) as TokensResponse | { error: string };
  const out = $("tokens");
  if ("error" in result) {
    out.textContent = result.error;
    return;
  }
  result.ids.forEach((id, i) => {
    const token = el("span", { class: `tok ${result.kinds[i] ?? "text"}`, title: `id ${id} (${result.kinds[i] ?? "text"})`, "data-id": String(id) });
    token.append(el("span", { class: "piece" }, result.pieces[i] ?? ""), el("sub", {}, String(id)));
    out.append(token);
  });
  $("token-count").textContent = `${result.ids.length} tokens`;
}

function showParse(result: { message: unknown; finish_reason: string; errors: { type: string; message: string; name?: string }[] }): void {
  $("parsed").textContent = JSON.stringify(result.message, null, 2);
  $("finish-reason").textContent = result.finish_reason;
  const calls = $("tool-calls");
  calls.replaceChildren();
  const message = result.message as { tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
  for (const call of message.tool_calls ?? []) {
    const row = el("tr");
    row.append(el("td", {}, call.function.name), el("td", {}, call.function.arguments), el("td", {}, call.id));
    calls.append(row);
  }
  const errors = $("parse-errors");
  errors.replaceChildren(...result.errors.map((e) => el("li", { class: e.type }, `${e.type}${e.name ? ` ${e.name}` : ""}: ${e.message}`)));
}

async function parseCompletion(): Promise<void> {
  showError("parse-error", undefined);
  try {
    const { template } = await templateOf("a");
    showParse(template.parse($<HTMLTextAreaElement>("completion").value, requestOf("a"), { render: renderOptions() }));
  } catch (err) {
    showError("parse-error", err);
  }
}

/** Feeds the completion to a stream parser a few characters at a time, showing each delta as it comes. */
async function streamCompletion(): Promise<void> {
  showError("parse-error", undefined);
  const list = $("deltas");
  list.replaceChildren();
  try {
    const { template } = await templateOf("a");
    const request = requestOf("a");
    const parser = template.streamParser(request, { render: renderOptions() });
    const chars = Array.from($<HTMLTextAreaElement>("completion").value);
    const size = Math.max(1, Number($<HTMLInputElement>("chunk-size").value) || 4);
    const all: Delta[] = [];
    const show = (deltas: Delta[]) => {
      for (const d of deltas) {
        all.push(d);
        list.append(el("li", {}, JSON.stringify(d)));
      }
    };
    for (let i = 0; i < chars.length; i += size) {
      show(parser.push(chars.slice(i, i + size).join("")));
      await new Promise((r) => setTimeout(r, 0));
    }
    show(parser.end());
    list.dataset.done = "true";
    $("stream-summary").textContent = `${all.length} deltas`;
  } catch (err) {
    showError("parse-error", err);
  }
}

async function diffPrompts(): Promise<void> {
  const out = $("diff");
  out.replaceChildren();
  showError("diff-error", undefined);
  try {
    const mode = $<HTMLSelectElement>("diff-mode").value;
    const options = renderOptions();
    const a = (await templateOf("a")).template.render(requestOf("a") as Record<string, unknown>, options);
    const b = mode === "templates" ? (await templateOf("b")).template.render(requestOf("a") as Record<string, unknown>, options) : (await templateOf("a")).template.render(requestOf("b") as Record<string, unknown>, options);
    const lines = diffLines(a, b);
    for (const line of lines) out.append(el("div", { class: `line ${line.kind}` }, `${line.kind === "added" ? "+" : line.kind === "removed" ? "-" : " "} ${line.text}`));
    $("diff-summary").textContent = a === b ? "identical" : `${lines.filter((l) => l.kind === "removed").length} lines removed, ${lines.filter((l) => l.kind === "added").length} added`;
  } catch (err) {
    showError("diff-error", err);
  }
}

async function start(): Promise<void> {
  try {
    const response = await fetch("api/session");
    if (response.ok) session = (await response.json()) as InspectSession;
  } catch {
    // Opened as a static file: no server, built-in and pasted templates only.
  }
  document.body.dataset.mode = session.template || session.tokenizer ? "served" : "static";
  const builtins = await listBuiltins();
  for (const side of ["a", "b"] as const) {
    const select = $<HTMLSelectElement>(`template-${side}`);
    if (session.template) select.append(el("option", { value: "served" }, `--template ${session.template.origin}`));
    for (const b of builtins) select.append(el("option", { value: `builtin:${b.name}` }, `built-in: ${b.name}`));
    select.append(el("option", { value: "paste" }, "pasted below"));
    if (side === "b" && select.options.length > 1) select.selectedIndex = 1;
    select.addEventListener("change", () => void renderPrompt());
  }
  $<HTMLTextAreaElement>("request-a").value = JSON.stringify(EXAMPLE_REQUEST, null, 2);
  $<HTMLTextAreaElement>("request-b").value = JSON.stringify({ ...EXAMPLE_REQUEST, tools: [] }, null, 2);
  $<HTMLTextAreaElement>("completion").value = EXAMPLE_COMPLETION;
  $("render-button").addEventListener("click", () => void renderPrompt());
  $("parse-button").addEventListener("click", () => void parseCompletion());
  $("stream-button").addEventListener("click", () => void streamCompletion());
  $("diff-button").addEventListener("click", () => void diffPrompts());
  for (const id of ["request-a", "template-a-text", "bos-a", "eos-a", "generation-prompt", "polyfill"]) $(id).addEventListener("change", () => void renderPrompt());
  await renderPrompt();
  document.body.dataset.ready = "true";
}

void start();
