/**
 * `chatwire serve --template SRC --backend URL --backend-kind llamacpp|openai|ollama [--host H] [--port N]`:
 * an OpenAI-compatible endpoint in front of a raw completion backend (docs/server.md). Runs until
 * SIGINT/SIGTERM (or, in tests, until `stop` aborts), then closes open connections and exits 0.
 */
import { readJson } from "../request/read-json.js";
import { isObject } from "../request/is-object.js";
import { BACKEND_KINDS, startServer, type BackendKind } from "../server/index.js";
import { parseOptions, positiveInt, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import { UsageError, type CliIO } from "./io.js";

export const SERVE_USAGE =
  "chatwire serve --template SRC [--template-name NAME] --backend URL --backend-kind llamacpp|openai|ollama [--host H] [--port N] [--model NAME] [--timeout SECONDS] [--max-body BYTES] [--keep-bos] [--no-grammar] [--backend-body JSON]";

export async function serveCommand(argv: string[], io: CliIO, stop?: AbortSignal): Promise<number> {
  const values = parseOptions(argv, {
    ...TEMPLATE_OPTIONS,
    backend: { type: "string" },
    "backend-kind": { type: "string" },
    host: { type: "string" },
    port: { type: "string" },
    model: { type: "string" },
    timeout: { type: "string" },
    "max-body": { type: "string" },
    "keep-bos": { type: "boolean" },
    "no-grammar": { type: "boolean" },
    "backend-body": { type: "string" },
  });
  if (values.backend === undefined) throw new UsageError("--backend URL is required (the raw completion server, e.g. http://127.0.0.1:8080)");
  const kind = values["backend-kind"];
  if (kind === undefined || !(BACKEND_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--backend-kind must be one of ${BACKEND_KINDS.join(", ")}${kind === undefined ? "" : `, got ${JSON.stringify(kind)}`}`);
  }
  const port = portOf(values.port);
  const timeoutSeconds = positiveInt(values.timeout, "--timeout", 300);
  const maxBody = positiveInt(values["max-body"], "--max-body", 8 * 1024 * 1024);
  const backendBody = backendBodyOf(values["backend-body"]);
  const template = await templateFrom(values);
  const server = await startServer({
    template,
    backend: values.backend,
    backendKind: kind as BackendKind,
    ...(values.host === undefined ? {} : { host: values.host }),
    port,
    ...(values.model === undefined ? {} : { model: values.model }),
    backendTimeoutMs: timeoutSeconds * 1000,
    maxBodyBytes: maxBody,
    keepBos: values["keep-bos"] === true,
    grammar: values["no-grammar"] !== true,
    ...(backendBody === undefined ? {} : { backendBody }),
    log: (line) => io.stderr.write(`chatwire: ${line.replace(/\r?\n/g, "\\n")}\n`),
  });
  io.stderr.write(`chatwire: serving ${template.origin} (format ${template.format}) at ${server.url}/v1, backend ${kind} ${values.backend}\n`);
  await stopped(stop);
  await server.close();
  return 0;
}

function portOf(value: string | undefined): number {
  if (value === undefined) return 8000;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(value)}`);
  return n;
}

function backendBodyOf(value: string | undefined): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = readJson(value);
  } catch (err) {
    throw new UsageError(`--backend-body must be a JSON object: ${(err as Error).message}`);
  }
  if (!isObject(parsed)) throw new UsageError("--backend-body must be a JSON object");
  return parsed;
}

/** Resolves on SIGINT/SIGTERM, or when `stop` aborts. */
function stopped(stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (stop !== undefined) {
      if (stop.aborted) resolve();
      else stop.addEventListener("abort", () => resolve(), { once: true });
      return;
    }
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}
