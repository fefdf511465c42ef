/**
 * Built-in templates: the files in the package's `templates/` folder, listed in `templates/index.json`
 * (name -> file, special tokens, where it comes from). They are looked up next to this module, so they
 * work from `src/` (tests), from `dist/` and from an installed package alike.
 */
import { ChatwireError } from "../errors.js";
import { readJson } from "../request/read-json.js";
import type { LoadedTemplate } from "./config.js";
import { kindOf, nodeFs, readText } from "./node-fs.js";

export interface BuiltinInfo {
  name: string;
  file: string;
  description: string;
  source: string;
  specialTokens: Record<string, string>;
}

let dirPromise: Promise<string | undefined> | undefined;

async function moduleDir(): Promise<string> {
  // CJS builds have __dirname; ESM has import.meta.url (which CJS builds leave empty).
  if (typeof __dirname === "string") return __dirname;
  const [{ fileURLToPath }, { path }] = await Promise.all([import("node:url"), nodeFs()]);
  return path.dirname(fileURLToPath(import.meta.url));
}

/** The package's `templates/` folder: the nearest one above this module that has an index.json. */
export function templatesDir(): Promise<string | undefined> {
  dirPromise ??= (async () => {
    const { path } = await nodeFs();
    let dir = await moduleDir();
    for (let i = 0; i < 4; i++) {
      const candidate = path.join(dir, "templates");
      if ((await kindOf(path.join(candidate, "index.json"))) === "file") return candidate;
      dir = path.dirname(dir);
    }
    return undefined;
  })();
  return dirPromise;
}

export async function listBuiltins(): Promise<BuiltinInfo[]> {
  const dir = await templatesDir();
  if (dir === undefined) return [];
  const { path } = await nodeFs();
  const index = readJson(await readText(path.join(dir, "index.json"))) as {
    templates: Record<string, Omit<BuiltinInfo, "name" | "specialTokens"> & { special_tokens?: Record<string, string> }>;
  };
  return Object.entries(index.templates).map(([name, entry]) => ({
    name,
    file: entry.file,
    description: entry.description,
    source: entry.source,
    specialTokens: entry.special_tokens ?? {},
  }));
}

/** The built-in template `name`, or undefined when there is none by that name. */
export async function loadBuiltin(name: string): Promise<LoadedTemplate | undefined> {
  const info = (await listBuiltins()).find((b) => b.name === name);
  if (info === undefined) return undefined;
  const dir = (await templatesDir()) as string;
  const { path } = await nodeFs();
  const text = await readText(path.join(dir, info.file));
  return { variants: { default: text }, specialTokens: { ...info.specialTokens }, origin: `builtin:${name}` };
}

export async function unknownSourceError(spec: string): Promise<ChatwireError> {
  const names = (await listBuiltins()).map((b) => b.name);
  return new ChatwireError(
    "io_error",
    `${spec}: no such file, folder or built-in template (built-ins: ${names.join(", ") || "none found"})`,
  );
}
