/** Option parsing shared by the commands (node:util parseArgs, with its errors turned into usage errors). */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { readJson } from "../request/read-json.js";
import type { ChatTemplate } from "../template/index.js";
import { loadTemplate } from "../template/index.js";
import { UsageError } from "./io.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

type Values<T extends Options> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>["values"];

export function parseOptions<T extends Options>(argv: string[], options: T): Values<T> {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Values<T>;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

/** `--template SRC` and `--template-name NAME`, shared by every command that loads a template. */
export const TEMPLATE_OPTIONS = {
  template: { type: "string" },
  "template-name": { type: "string" },
} as const satisfies Options;

export async function templateFrom(values: { template?: string | undefined; "template-name"?: string | undefined }): Promise<ChatTemplate> {
  if (values.template === undefined) throw new UsageError("--template SRC is required (a path, a model folder, a .gguf file or a built-in name)");
  const name = values["template-name"];
  return loadTemplate(values.template, name === undefined ? {} : { templateName: name });
}

/** `--var k=JSON`: the value is read as JSON (floats kept); a value that is not JSON is taken as a string. */
export function parseVars(vars: string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of vars ?? []) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new UsageError(`--var expects key=JSON, got ${JSON.stringify(item)}`);
    const text = item.slice(eq + 1);
    let value: unknown;
    try {
      value = readJson(text);
    } catch {
      value = text;
    }
    out[item.slice(0, eq)] = value;
  }
  return out;
}

/** A positive integer option. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
