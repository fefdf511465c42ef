/**
 * Option parsing shared by the commands: each command's option table (help.ts) read by node:util's
 * parseArgs, with its errors turned into usage errors, and the options several commands share.
 */
import { parseArgs } from "node:util";
import { readJson } from "../request/read-json.js";
import type { ChatTemplate, PolyfillMode } from "../template/index.js";
import { loadTemplate } from "../template/index.js";
import { closest } from "./did-you-mean.js";
import type { OptionTable } from "./help.js";
import { UsageError } from "./io.js";

type Values<T extends OptionTable> = ReturnType<typeof parseArgs<{ options: T; strict: true; allowPositionals: false }>>["values"];

/** `argv` read by the command's option table (only each option's type and `multiple` matter to parseArgs). */
export function parseOptions<T extends OptionTable>(argv: string[], table: T): Values<T> {
  const options = Object.fromEntries(Object.entries(table).map(([name, o]) => [name, { type: o.type, multiple: o.multiple === true }]));
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as Values<T>;
  } catch (err) {
    throw new UsageError(withSuggestion((err as Error).message, table));
  }
}

/**
 * node:util's errors as a new user needs them: "Unknown option '--tempate'" with the nearest accepted
 * option, if one is close; a short option (there are none); a bare value (`render qwen3`), which
 * belongs after its option's name.
 */
function withSuggestion(message: string, options: OptionTable): string {
  const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
  if (unknown !== undefined) {
    const near = closest(unknown, Object.keys(options));
    return `unknown option --${unknown}${near === undefined ? "" : `; did you mean --${near}?`} (\`--help\` lists the options)`;
  }
  const short = /^Unknown option '(-[^-'])'/.exec(message)?.[1];
  if (short !== undefined) return `unknown option ${short}: options have long names only (\`--help\` lists them)`;
  const bare = /^Unexpected argument '([^]*)'\. This command does not take positional arguments/.exec(message)?.[1];
  if (bare !== undefined) {
    const first = Object.entries(options).find(([, o]) => o.type === "string")?.[0];
    const example = first === undefined ? "" : ` (--${first} ${bare})`;
    return `unexpected argument ${JSON.stringify(bare)}: a value follows its option's name${example}; \`--help\` lists the options`;
  }
  return message;
}

/** `--template SRC` and `--template-name NAME`, shared by every command that loads a template. */
export const TEMPLATE_OPTIONS = {
  template: {
    type: "string",
    value: "SRC",
    description: "the chat template: a .jinja file, a tokenizer_config.json (or chat_template.json), a model folder, a .gguf file, or a built-in name (chatml-tools, qwen3)",
    example: "--template ./Qwen3-8B",
  },
  "template-name": {
    type: "string",
    value: "NAME",
    description: "which of a config's named templates to use; default: tool_use when there is one, else default",
    example: "--template-name rag",
  },
} as const satisfies OptionTable;

/** `--var k=JSON` (parseVars). */
export const VAR_OPTIONS = {
  var: {
    type: "string",
    value: "k=JSON",
    multiple: true,
    description:
      "a template variable, the value as JSON. Repeatable. A value that is not JSON is refused (Python's False/True/None are named in the error: write false/true/null; a string needs its JSON quotes)",
    example: "--var enable_thinking=false --var reasoning_effort='\"high\"'",
  },
} as const satisfies OptionTable;

/** `--polyfill auto|always|never` (docs/polyfills.md): `never` gives transformers' exact bytes for a template without tools. */
export const POLYFILL_OPTIONS = {
  polyfill: {
    type: "string",
    value: "auto|always|never",
    description:
      "the tool prompt chatwire adds for a template that cannot show tools (docs/polyfills.md): auto (default) when the template has no tool syntax, always, or never (transformers' exact bytes)",
    example: "--polyfill never",
  },
} as const satisfies OptionTable;

export async function templateFrom(values: { template?: string | undefined; "template-name"?: string | undefined }): Promise<ChatTemplate> {
  if (values.template === undefined) throw new UsageError("--template SRC is required (a path, a model folder, a .gguf file or a built-in name)");
  const name = values["template-name"];
  return loadTemplate(values.template, name === undefined ? {} : { templateName: name });
}

export function parsePolyfill(value: string | undefined): PolyfillMode | undefined {
  if (value === undefined) return undefined;
  if (value !== "auto" && value !== "always" && value !== "never") throw new UsageError(`--polyfill must be auto, always or never, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * `--var k=JSON`: the value is read as JSON (floats kept), and only as JSON. A value that is not JSON
 * is refused rather than taken as a string: `enable_thinking=False` (as a Python user writes it)
 * would otherwise be the string "False", which a template tests as true, so thinking stays on. The
 * error names the JSON spelling (false, true, null) or, for a word, the quoted string.
 */
export function parseVars(vars: string[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of vars ?? []) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new UsageError(`--var expects key=JSON, got ${JSON.stringify(item)}`);
    const key = item.slice(0, eq);
    const text = item.slice(eq + 1);
    try {
      out[key] = readJson(text);
    } catch {
      throw new UsageError(`--var ${key}: ${JSON.stringify(text)} is not JSON; ${varHint(key, text)}`);
    }
  }
  return out;
}

const PYTHON_LITERALS: Record<string, string> = { True: "true", False: "false", None: "null" };

function varHint(key: string, text: string): string {
  const literal = PYTHON_LITERALS[text.trim()];
  if (literal !== undefined) return `write ${key}=${literal} (JSON), not ${text.trim()} (Python)`;
  return `a string needs JSON quotes: --var ${key}='${JSON.stringify(text)}'`;
}

/** A positive integer option. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
