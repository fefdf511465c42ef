/**
 * `chatwire serve --template SRC --backend URL --backend-kind KIND [...]`: an OpenAI-compatible endpoint
 * in front of a raw completion backend (docs/server.md). Runs until SIGINT/SIGTERM (or, in tests, until
 * `stop` aborts), then drains: no new connections, requests in flight finish, exit 0. With
 * `--workers N`, a node:cluster primary runs N such servers behind the one port.
 */
import cluster from "node:cluster";
import { readJson } from "../request/read-json.js";
import { isObject } from "../request/is-object.js";
import { BACKEND_KINDS, MAX_TIMEOUT_MS, startServer, type BackendKind, type ServeOptions } from "../server/index.js";
import { findPromptTokenizer } from "../server/tokenizer-source.js";
import { parseOptions, positiveInt, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { UsageError, type CliIO } from "./io.js";
import { stopped } from "./stopped.js";

export const SERVE_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  backend: { type: "string", value: "URL", description: "the backend's base URL (required)", example: "--backend http://127.0.0.1:8080" },
  "backend-kind": {
    type: "string",
    value: "llamacpp|openai|vllm|sglang|ollama",
    description: "the protocol the backend speaks (required; openai is any plain /v1/completions server)",
    example: "--backend-kind vllm",
  },
  host: { type: "string", value: "H", description: "the address to listen on (default 127.0.0.1: loopback only; 0.0.0.0 exposes it)", example: "--host 0.0.0.0" },
  port: { type: "string", value: "N", description: "the port (default 8000; 0 picks a free one)", example: "--port 8001" },
  model: {
    type: "string",
    value: "NAME",
    description: "the backend's model name: sent to openai/vllm/sglang/ollama backends (they need one) and listed by /v1/models",
    example: "--model Qwen/Qwen3-8B",
  },
  tokenizer: {
    type: "string",
    value: "FILE",
    description: "the vocabulary for token ids: a tokenizer.json or .gguf; default: the one that comes with --template, else llama-server's /tokenize",
    example: "--tokenizer ./Qwen3-8B/tokenizer.json",
  },
  "text-prompt": {
    type: "boolean",
    description: "send the prompt as text (the backend may then read special-token text in request data as control tokens; a warning is printed)",
  },
  "api-key": {
    type: "string",
    value: "KEY",
    description: "require Authorization: Bearer KEY on every route but /health (also read from CHATWIRE_API_KEY)",
    example: "--api-key \"$(cat key.txt)\"",
  },
  cors: {
    type: "string",
    value: "ORIGIN",
    multiple: true,
    description: "allow browser calls from ORIGIN (repeat, or comma-separate; * for any)",
    example: "--cors http://localhost:5173",
  },
  workers: { type: "string", value: "N", description: "run N server processes behind the one port (node:cluster)", example: "--workers 4" },
  timeout: {
    type: "string",
    value: "SECONDS",
    description: "longest wait for the backend to start answering and between two streamed pieces (default 300); past it 504",
    example: "--timeout 600",
  },
  "max-body": { type: "string", value: "BYTES", description: "largest request body accepted (default 8388608); past it 413", example: "--max-body 33554432" },
  "keep-bos": { type: "boolean", description: "with --text-prompt: keep the prompt's leading bos_token (default: dropped, the backend adds its own)" },
  "no-grammar": { type: "boolean", description: "do not send the backend a tool-call grammar" },
  "stream-calls": {
    type: "string",
    value: "validated|early",
    description: "stream a tool call once it has closed and validated (default), or as it is generated",
    example: "--stream-calls early",
  },
  "backend-body": {
    type: "string",
    value: "JSON",
    description: "fields merged into every backend request; null removes a field chatwire sets",
    example: "--backend-body '{\"top_k\": 20}'",
  },
  "no-access-log": { type: "boolean", description: "no log line per request" },
} as const satisfies OptionTable;

export const SERVE: CommandSpec = {
  summary:
    "An OpenAI-compatible server (Chat Completions, Responses, models, health, tokenize) in front of a raw completion backend; the prompt is rendered (as token ids) and the completion parsed by chatwire (docs/server.md). It may start before its backend: /health is 503 until the backend answers.",
  options: SERVE_OPTIONS,
  usage: { required: ["template", "backend", "backend-kind"] },
  examples: [
    "chatwire serve --template ./Qwen3-8B --backend http://127.0.0.1:8080 --backend-kind llamacpp",
    "chatwire serve --template qwen3 --tokenizer tokenizer.json --backend http://127.0.0.1:8001 --backend-kind vllm --model Qwen/Qwen3-8B --port 8000",
  ],
};

export async function serveCommand(argv: string[], io: CliIO, stop?: AbortSignal): Promise<number> {
  const values = parseOptions(argv, SERVE_OPTIONS);
  if (values.backend === undefined) throw new UsageError("--backend URL is required (the raw completion server, e.g. http://127.0.0.1:8080)");
  const kind = values["backend-kind"];
  if (kind === undefined || !(BACKEND_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--backend-kind must be one of ${BACKEND_KINDS.join(", ")}${kind === undefined ? "" : `, got ${JSON.stringify(kind)}`}`);
  }
  const port = portOf(values.port);
  const timeoutSeconds = positiveInt(values.timeout, "--timeout", 300);
  // setTimeout cannot wait longer than 2^31-1 ms; a longer timeout would fire at once (every request a 504).
  if (timeoutSeconds * 1000 > MAX_TIMEOUT_MS) throw new UsageError(`--timeout must be at most ${Math.floor(MAX_TIMEOUT_MS / 1000)} seconds, got ${timeoutSeconds}`);
  const maxBody = positiveInt(values["max-body"], "--max-body", 8 * 1024 * 1024);
  const workers = values.workers === undefined ? 1 : positiveInt(values.workers, "--workers", 1);
  const streamCalls = values["stream-calls"] ?? "validated";
  if (streamCalls !== "validated" && streamCalls !== "early") throw new UsageError(`--stream-calls must be validated or early, got ${JSON.stringify(streamCalls)}`);
  const backendBody = backendBodyOf(values["backend-body"]);
  const cors = (values.cors ?? []).flatMap((c) => c.split(",")).map((c) => c.trim()).filter((c) => c !== "");
  const apiKey = values["api-key"] ?? (process.env.CHATWIRE_API_KEY || undefined);
  if (apiKey !== undefined && apiKey.trim() === "") throw new UsageError("--api-key must not be empty");
  const template = await templateFrom(values);
  const textPrompt = values["text-prompt"] === true;
  const write = (line: string): void => void io.stderr.write(`chatwire: ${line.replace(/\r?\n/g, "\\n")}\n`);
  // With --text-prompt the backend is not asked for its special tokens. Without, a backend that is not
  // up yet is asked again in the background (the server answers 503 until it is).
  const tokenizer = await findPromptTokenizer({
    ...(values.tokenizer === undefined ? {} : { tokenizerFile: values.tokenizer }),
    templateSource: values.template ?? "",
    template,
    backendKind: kind as BackendKind,
    ...(textPrompt ? {} : { transport: { baseUrl: backendBase(values.backend), timeoutMs: timeoutSeconds * 1000, maxResponseBytes: 16 * 1024 * 1024 } }),
    retry: { log: write },
  });
  if (tokenizer === undefined && !textPrompt) {
    throw new UsageError(
      "no tokenizer to send token ids with: pass --tokenizer FILE (tokenizer.json), a model folder with tokenizer.json or a .gguf as --template, or --text-prompt to send text (the backend may then read special-token text in request data as control tokens)",
    );
  }
  const options: ServeOptions = {
    template,
    backend: values.backend,
    backendKind: kind as BackendKind,
    ...(values.host === undefined ? {} : { host: values.host }),
    port,
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(tokenizer === undefined ? {} : { tokenizer }),
    textPrompt,
    backendTimeoutMs: timeoutSeconds * 1000,
    maxBodyBytes: maxBody,
    keepBos: values["keep-bos"] === true,
    grammar: values["no-grammar"] !== true,
    streamCalls,
    ...(backendBody === undefined ? {} : { backendBody }),
    ...(apiKey === undefined ? {} : { apiKey }),
    cors,
    log: write,
    ...(values["no-access-log"] === true ? {} : { accessLog: write }),
  };
  const prompt = tokenizer === undefined || textPrompt ? "text prompts" : `token ids from ${tokenizer.source}`;
  try {
    if (workers > 1 && cluster.isPrimary) {
      // Each worker finds (and, while the backend is down, waits for) its own tokenizer.
      tokenizer?.close?.();
      return await primary(workers, options, prompt, io, stop);
    }
    const server = await startServer(options);
    const role = cluster.isWorker ? `worker ${process.pid} ` : "";
    write(`${role}serving ${template.origin} (format ${template.format}) at ${server.url}/v1, backend ${kind} ${values.backend}, ${prompt}`);
    await stopped(stop);
    await server.close();
  } finally {
    tokenizer?.close?.();
  }
  // A cluster worker stays alive while its channel to the primary is open.
  if (cluster.isWorker) cluster.worker?.disconnect();
  return 0;
}

/**
 * The cluster primary: forks `count` workers running this same command (they share the listening
 * port), restarts one that dies, and on SIGINT/SIGTERM asks each to drain and waits for them.
 */
async function primary(count: number, options: ServeOptions, prompt: string, io: CliIO, stop: AbortSignal | undefined): Promise<number> {
  let stopping = false;
  const fork = (): void => {
    cluster.fork();
  };
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    io.stderr.write(`chatwire: worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`);
    fork();
  });
  const listening = new Promise<string>((resolve) => {
    let ready = 0;
    cluster.on("listening", (_worker, address) => {
      if (++ready === count) resolve(`http://${options.host ?? "127.0.0.1"}:${address.port}`);
    });
  });
  for (let i = 0; i < count; i++) fork();
  const url = await listening;
  io.stderr.write(`chatwire: serving ${options.template.origin} (format ${options.template.format}) at ${url}/v1 with ${count} workers, backend ${options.backendKind} ${options.backend}, ${prompt}\n`);
  await stopped(stop);
  stopping = true;
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.isDead()) return resolve();
          w.once("exit", () => resolve());
          w.process.kill("SIGTERM");
        }),
    ),
  );
  return 0;
}

/** The backend URL as the transport wants it; the server checks it again with its own message. */
function backendBase(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--backend must be an http(s) URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new UsageError(`backend must be an http(s) URL, got ${JSON.stringify(url)}`);
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, "");
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
