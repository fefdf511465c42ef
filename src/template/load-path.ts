/**
 * A template source given as a string: a path (a `.jinja` file, any `.json` file with a `chat_template`
 * field, a model folder, a `.gguf` file) or, when nothing exists at that path, a built-in name.
 */
import { ChatwireError } from "../errors.js";
import { readJson } from "../request/read-json.js";
import { loadBuiltin, unknownSourceError } from "./builtins.js";
import { fromConfig, readSpecialTokens, readVariants, type LoadedTemplate } from "./config.js";
import { loadGguf } from "./load-gguf.js";
import { kindOf, nodeFs, readText } from "./node-fs.js";

export async function loadFromString(spec: string): Promise<LoadedTemplate> {
  const kind = await kindOf(spec);
  if (kind === "dir") return loadFolder(spec);
  if (kind === "file") return loadFile(spec);
  const builtin = await loadBuiltin(spec);
  if (builtin !== undefined) return builtin;
  throw await unknownSourceError(spec);
}

async function loadFile(file: string): Promise<LoadedTemplate> {
  const lower = file.toLowerCase();
  if (lower.endsWith(".gguf")) return loadGguf(file);
  if (lower.endsWith(".json")) return fromConfig(await readJsonFile(file), file);
  return { variants: { default: await readText(file) }, specialTokens: {}, origin: file };
}

async function readJsonFile(file: string): Promise<unknown> {
  const text = await readText(file);
  try {
    return readJson(text);
  } catch (err) {
    throw new ChatwireError("invalid_template", `${file}: not valid JSON (${(err as Error).message})`);
  }
}

/**
 * A model folder, read the way transformers reads one: `chat_template.jinja` (and named variants in
 * `chat_templates/*.jinja`) win over `chat_template.json` (processor configs), which wins over the
 * `chat_template` field of `tokenizer_config.json`. Special tokens always come from tokenizer_config.json.
 */
async function loadFolder(dir: string): Promise<LoadedTemplate> {
  const { fs, path } = await nodeFs();
  const at = (name: string) => path.join(dir, name);
  const configFile = at("tokenizer_config.json");
  const config = (await kindOf(configFile)) === "file" ? await readJsonFile(configFile) : {};
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new ChatwireError("invalid_template", `${configFile}: expected a JSON object`);
  }
  const tokensFrom = readSpecialTokens(config as Record<string, unknown>);

  const variants: Record<string, string> = {};
  if ((await kindOf(at("chat_template.jinja"))) === "file") variants.default = await readText(at("chat_template.jinja"));
  if ((await kindOf(at("chat_templates"))) === "dir") {
    for (const name of (await fs.readdir(at("chat_templates"))).sort()) {
      if (name.endsWith(".jinja")) variants[name.slice(0, -".jinja".length)] = await readText(path.join(at("chat_templates"), name));
    }
  }
  if (Object.keys(variants).length > 0) return { variants, specialTokens: tokensFrom, origin: dir };

  if ((await kindOf(at("chat_template.json"))) === "file") {
    const processor = (await readJsonFile(at("chat_template.json"))) as Record<string, unknown> | null;
    return { variants: readVariants(processor?.chat_template, at("chat_template.json")), specialTokens: tokensFrom, origin: dir };
  }
  if ((config as Record<string, unknown>).chat_template !== undefined) return { ...fromConfig(config, configFile), origin: dir };
  throw new ChatwireError(
    "invalid_template",
    `${dir}: no chat template found (looked for chat_template.jinja, chat_templates/, chat_template.json, tokenizer_config.json)`,
  );
}
