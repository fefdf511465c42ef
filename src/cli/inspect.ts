/**
 * `chatwire inspect [--template SRC] [--tokenizer FILE] [--port N] | --out DIR`: the prompt inspector
 * (src/inspect). Serves the page on loopback until SIGINT/SIGTERM (or, in tests, until `stop`
 * aborts), with the --template template preselected and token ids from --tokenizer; `--out DIR`
 * writes the same page as a static build (index.html + inspector.js) that works offline.
 */
import { ChatwireError } from "../errors.js";
import { jsonSyntaxError, notJsonMessage } from "../request/read-json.js";
import { inspectorHtml } from "../inspect/page.js";
import { startInspector } from "../inspect/server.js";
import type { ChatTemplate } from "../template/index.js";
import { kindOf, nodeFs, readText } from "../template/node-fs.js";
import type { TokenizerJson } from "../tokens/index.js";
import { parseOptions, positiveInt, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { UsageError, type CliIO } from "./io.js";
import { stopped } from "./stopped.js";

export const INSPECT_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  tokenizer: { type: "string", value: "FILE", description: "a tokenizer.json for the token view", example: "--tokenizer ./Qwen3-8B/tokenizer.json" },
  port: { type: "string", value: "N", description: "the port to serve on (default: a free one); not with --out", example: "--port 7000" },
  out: {
    type: "string",
    value: "DIR",
    description: "write the page (index.html + inspector.js) to DIR instead of serving it; it works offline with built-in and pasted templates",
    example: "--out ./inspector",
  },
} as const satisfies OptionTable;

export const INSPECT: CommandSpec = {
  summary: "The prompt inspector, a page that shows the rendered prompt, its tokens by class (special, added, text) and where each piece came from. Served on loopback, or written as a static page with --out.",
  options: INSPECT_OPTIONS,
  usage: { required: ["out"], alternatives: [["template", "template-name", "tokenizer", "port"], ["out"]] },
  examples: ["chatwire inspect --template ./Qwen3-8B --tokenizer ./Qwen3-8B/tokenizer.json --port 7000", "chatwire inspect --out ./inspector"],
};

/** The browser bundle: next to the CLI in dist/ (dist/inspect/inspector.js), or the built one when run from src/. */
async function inspectorScript(): Promise<string> {
  const { path } = await nodeFs();
  const { fileURLToPath } = await import("node:url");
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.join(here, "..", "inspect", "inspector.js"), path.join(here, "..", "..", "dist", "inspect", "inspector.js")]) {
    if ((await kindOf(candidate)) === "file") return readText(candidate);
  }
  throw new ChatwireError("io_error", "the inspector page script (dist/inspect/inspector.js) is missing: run npm run build");
}

export async function inspectCommand(argv: string[], io: CliIO, stop?: AbortSignal): Promise<number> {
  const values = parseOptions(argv, INSPECT_OPTIONS);
  if (values.out !== undefined && (values.template !== undefined || values.tokenizer !== undefined || values.port !== undefined || values["template-name"] !== undefined)) {
    throw new UsageError("--out writes the static page (built-in and pasted templates) and serves nothing; --template, --template-name, --tokenizer and --port need the served page (drop --out)");
  }
  const script = await inspectorScript();
  if (values.out !== undefined) {
    const { fs, path } = await nodeFs();
    await fs.mkdir(values.out, { recursive: true });
    await fs.writeFile(path.join(values.out, "index.html"), inspectorHtml());
    await fs.writeFile(path.join(values.out, "inspector.js"), script);
    io.stdout.write(`${path.join(values.out, "index.html")}\n`);
    return 0;
  }
  if (values.template === undefined && values["template-name"] !== undefined) throw new UsageError("--template-name needs --template SRC");
  const template: ChatTemplate | undefined = values.template === undefined ? undefined : await templateFrom(values);
  const tokenizer = values.tokenizer === undefined ? undefined : await readTokenizerFile(values.tokenizer);
  const port = values.port === undefined ? 0 : positiveInt(values.port, "--port", 0);
  const inspector = await startInspector({ script, port, ...(template ? { template } : {}), ...(tokenizer ? { tokenizer } : {}), ...(values["template-name"] ? { templateName: values["template-name"] } : {}) });
  io.stdout.write(`chatwire inspect: ${inspector.url}\n`);
  await stopped(stop);
  await inspector.close();
  return 0;
}

async function readTokenizerFile(file: string): Promise<TokenizerJson> {
  const text = await readText(file);
  try {
    return JSON.parse(text) as TokenizerJson; // plain JSON: the tokenizer wants numbers, not PyFloat
  } catch (err) {
    throw new ChatwireError("io_error", notJsonMessage(file, jsonSyntaxError(text, err)));
  }
}
