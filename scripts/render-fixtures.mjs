/**
 * Reads the render conformance fixtures (templates, conversations, reference prompts) for the test, the
 * @huggingface/jinja baseline and the benchmark, so the three agree on what a "pair" is. Paths resolve
 * from this file, so callers can run from anywhere.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures");

/** The clock `strftime_now` is pinned to in the reference fixtures (naive 2026-01-02 03:04:05, read as UTC). */
export const FIXED_NOW = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

const read = (path) => readFileSync(path, "utf8");

/** Every fixture template with the bos/eos strings it is rendered with, sorted by name. */
export function loadTemplates() {
  const dir = join(FIXTURES, "templates");
  const table = JSON.parse(read(join(dir, "special-tokens.json")));
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jinja"))
    .sort()
    .map((file) => {
      const name = file.slice(0, -".jinja".length);
      const tokens = table.templates[name] ?? table.default;
      return { name, chat_template: read(join(dir, file)), bos_token: tokens.bos_token, eos_token: tokens.eos_token };
    });
}

const SPECIAL_TOKENS = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"];

/**
 * The published tokenizer_config.json files of fixtures/real-configs/<name>/ (see SOURCES.md there), as
 * `real-<name>`: `config` is the in-memory source loadTemplate takes (the chat template and every special
 * token the config sets, which transformers passes to the template).
 */
export function loadRealConfigs() {
  const dir = join(FIXTURES, "real-configs");
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const full = JSON.parse(read(join(dir, name, "tokenizer_config.json")));
      const config = { chat_template: full.chat_template };
      for (const key of SPECIAL_TOKENS) if (key in full) config[key] = full[key];
      return { name: `real-${name}`, config };
    });
}

/** Every fixture conversation `{name, request, options}`, parsed with `parseJson` (keep floats with readJson). */
export function loadConversations(parseJson = JSON.parse) {
  const dir = join(FIXTURES, "conversations");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((file) => ({ name: file.slice(0, -".json".length), ...parseJson(read(join(dir, file))) }));
}

/** The reference results for one template: `{caps, pairs: {[conversation]: {prompt} | {error, kind}}}`. */
export function loadExpected(templateName) {
  return JSON.parse(read(join(FIXTURES, "render", `${templateName}.json`)));
}

/** Per conversation, the canonical `{messages, tools}` variants the reference normaliser produced. */
export function loadNormalized(parseJson = JSON.parse) {
  return parseJson(read(join(FIXTURES, "render", "_normalized.json")));
}

/** Render options in the shape chatwire's `render` takes, with the pinned clock. */
export function renderOptions(options) {
  // The reference is transformers, which has no tool polyfill: compare what the template itself renders.
  return { addGenerationPrompt: true, polyfill: "never", ...options, now: FIXED_NOW };
}

