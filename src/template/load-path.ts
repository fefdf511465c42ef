/**
 * A template source given as a string: a path (a `.jinja` file, any `.json` file with a `chat_template`
 * field, a model folder, a `.gguf` file) or, when nothing exists at that path, a built-in name.
 */
import { ChatwireError } from "../errors.js";
import { notJsonMessage, readJson } from "../request/read-json.js";
import { loadBuiltin, unknownSourceError } from "./builtins.js";
import { fromConfig, readResponseSpecs, readSpecialTokens, readVariants, type LoadedTemplate } from "./config.js";
import { loadGguf } from "./load-gguf.js";
import { kindOf, nodeFs, readText } from "./node-fs.js";

export interface PathOptions {
  /** Follow symbolic links in a model folder that lead out of it (default false: refused). */
  allowExternalSymlinks?: boolean;
}

export async function loadFromString(spec: string, options: PathOptions = {}): Promise<LoadedTemplate> {
  const kind = await kindOf(spec);
  if (kind === "dir") return loadFolder(spec, options);
  if (kind === "file") return loadFile(spec);
  if (kind === "other") throw new ChatwireError("io_error", `${spec}: not a regular file (a FIFO, socket or device); refused`);
  const builtin = await loadBuiltin(spec);
  if (builtin !== undefined) return builtin;
  throw await unknownSourceError(spec);
}

async function loadFile(file: string): Promise<LoadedTemplate> {
  const lower = file.toLowerCase();
  if (lower.endsWith(".gguf")) return loadGguf(file);
  if (lower.endsWith(".json")) return fromConfig(await readJsonFile(file), file);
  return { variants: { default: await readText(file) }, specialTokens: {}, origin: file, files: { default: file } };
}

async function readJsonFile(file: string): Promise<unknown> {
  const text = await readText(file);
  try {
    return readJson(text);
  } catch (err) {
    throw new ChatwireError("invalid_template", notJsonMessage(file, err));
  }
}

/**
 * Where a model folder's files may really live: inside the folder, or, for a Hugging Face cache
 * snapshot (`models--org--name/snapshots/<rev>/`, whose files are links to `../../blobs/<hash>`), inside
 * that model's cache folder. A link elsewhere (`tokenizer_config.json -> /etc/passwd`) is refused unless
 * the caller allows it: a downloaded folder must not turn a system file into the prompt.
 */
async function folderGuard(dir: string, options: PathOptions): Promise<(file: string) => Promise<void>> {
  const { fs, path } = await nodeFs();
  if (options.allowExternalSymlinks === true) return async () => {};
  const real = await fs.realpath(dir);
  const root = path.basename(path.dirname(real)) === "snapshots" ? path.dirname(path.dirname(real)) : real;
  return async (file) => {
    let target: string;
    try {
      target = await fs.realpath(file);
    } catch {
      return; // nothing there (or a dangling link): reading it reports the error
    }
    const rel = path.relative(root, target);
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) {
      throw new ChatwireError(
        "io_error",
        `${file}: a symbolic link out of the model folder (to ${target}); refused (pass allowExternalSymlinks to follow it)`,
      );
    }
  };
}

/** "file" / "dir" / undefined for a folder entry, refusing links out of the folder and non-regular files. */
async function entryKind(file: string, guard: (file: string) => Promise<void>): Promise<"file" | "dir" | undefined> {
  const kind = await kindOf(file);
  if (kind === undefined) return undefined;
  await guard(file);
  if (kind === "other") throw new ChatwireError("io_error", `${file}: not a regular file (a FIFO, socket or device); refused`);
  return kind;
}

/**
 * A model folder, read the way transformers reads one: `chat_template.jinja` (and named variants in
 * `chat_templates/*.jinja`) win over `chat_template.json` (processor configs), which wins over the
 * `chat_template` field of `tokenizer_config.json`. Special tokens always come from tokenizer_config.json.
 */
async function loadFolder(dir: string, options: PathOptions): Promise<LoadedTemplate> {
  const { fs, path } = await nodeFs();
  const at = (name: string) => path.join(dir, name);
  const guard = await folderGuard(dir, options);
  const kind = (name: string) => entryKind(at(name), guard);
  const configFile = at("tokenizer_config.json");
  const config = (await kind("tokenizer_config.json")) === "file" ? await readJsonFile(configFile) : {};
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw new ChatwireError("invalid_template", `${configFile}: expected a JSON object`);
  }
  const tokensFrom = readSpecialTokens(config as Record<string, unknown>);
  // The response template lives in tokenizer_config.json whichever file holds the chat template.
  const responseSpecs = readResponseSpecs(config as Record<string, unknown>, configFile);

  const variants: Record<string, string> = {};
  const files: Record<string, string> = {};
  if ((await kind("chat_template.jinja")) === "file") {
    variants.default = await readText(at("chat_template.jinja"));
    files.default = at("chat_template.jinja");
  }
  if ((await kind("chat_templates")) === "dir") {
    for (const name of (await fs.readdir(at("chat_templates"))).sort()) {
      const file = path.join(at("chat_templates"), name);
      if (!name.endsWith(".jinja") || (await entryKind(file, guard)) !== "file") continue;
      // Defined, not assigned: a file named `__proto__.jinja` stays an own key.
      const variant = name.slice(0, -".jinja".length);
      Object.defineProperty(variants, variant, { value: await readText(file), enumerable: true, writable: true, configurable: true });
      Object.defineProperty(files, variant, { value: file, enumerable: true, writable: true, configurable: true });
    }
  }
  if (Object.keys(variants).length > 0) return { variants, specialTokens: tokensFrom, origin: dir, files, ...responseSpecs };

  if ((await kind("chat_template.json")) === "file") {
    const processor = (await readJsonFile(at("chat_template.json"))) as Record<string, unknown> | null;
    return { variants: readVariants(processor?.chat_template, at("chat_template.json")), specialTokens: tokensFrom, origin: dir, ...responseSpecs };
  }
  if ((config as Record<string, unknown>).chat_template !== undefined) return { ...fromConfig(config, configFile), origin: dir };
  throw new ChatwireError(
    "invalid_template",
    `${dir}: no chat template found (looked for chat_template.jinja, chat_templates/, chat_template.json, tokenizer_config.json)`,
  );
}
