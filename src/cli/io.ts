/**
 * The CLI's contact with the outside: the streams it is given (so tests run it in-process), reading
 * stdin and JSON files (with float literals kept: a `1.0` in a schema is rendered `1.0`), and the
 * one-line error report.
 */
import { ChatwireError } from "../errors.js";
import { notJsonMessage, readJson } from "../request/read-json.js";
import { placeOfField } from "../request/locate.js";
import { BackendError } from "../server/backends/types.js";
import { readText } from "../template/node-fs.js";

export interface CliIO {
  stdin: AsyncIterable<string | Uint8Array>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** A mistake in how the command was called (unknown option, missing value); reported as `usage`. */
export class UsageError extends Error {}

export async function readAll(stdin: AsyncIterable<string | Uint8Array>): Promise<string> {
  const parts: string[] = [];
  const bytes: Uint8Array[] = [];
  for await (const chunk of stdin) {
    if (typeof chunk === "string") parts.push(chunk);
    else bytes.push(chunk);
  }
  // Decode bytes in one go: a UTF-8 character may be split across chunks.
  return bytes.length > 0 ? new TextDecoder().decode(Buffer.concat(bytes)) : parts.join("");
}

/** The JSON text each run read (by its io), so an error about one of its fields can say line:column. */
const inputs = new WeakMap<CliIO, { name: string; text: string }>();

/** Reads a JSON file, or stdin for `-`. */
export async function readJsonInput(file: string, io: CliIO): Promise<unknown> {
  let text: string;
  if (file === "-") {
    text = await readAll(io.stdin);
  } else {
    text = await readText(file);
  }
  inputs.set(io, { name: file === "-" ? "stdin" : file, text });
  try {
    return readJson(text.replace(/^\uFEFF/, "")); // editors on Windows like to start files with a BOM
  } catch (err) {
    throw new ChatwireError("invalid_request", notJsonMessage(file === "-" ? "stdin" : file, err));
  }
}

const BACKEND_CODES = { 502: "backend_error", 503: "backend_unavailable", 504: "backend_timeout" } as const;

/**
 * `chatwire: <code>: <message>` on one line: no stack trace, newlines in messages escaped. The codes
 * are docs/cli.md's: `usage`, every ChatwireError code, the backend's (`backend_error`,
 * `backend_timeout`, `backend_unavailable`), and `internal_error` for a chatwire bug only.
 */
export function errorLine(err: unknown, io?: CliIO): string {
  let code = "internal_error";
  let message = String(err);
  if (err instanceof ChatwireError) code = err.code;
  else if (err instanceof UsageError) code = "usage";
  else if (err instanceof BackendError) code = BACKEND_CODES[err.status];
  // A Node system error the command met (EACCES writing `inspect --out DIR`, EADDRINUSE): the user's file system or port.
  else if (err instanceof Error && typeof (err as NodeJS.ErrnoException).syscall === "string") code = "io_error";
  if (err instanceof Error) message = err.message;
  const where = err instanceof ChatwireError && io !== undefined ? fieldPlace(err, inputs.get(io)) : "";
  return `chatwire: ${code}: ${message.replace(/\r?\n/g, "\\n")}${where}\n`;
}

/**
 * ` (at FILE:line:column)` for an error naming a field of the JSON the command read (for a tool
 * schema, the wrong place inside it: `tools[0].function.parameters.properties.a.type`).
 */
function fieldPlace(err: ChatwireError, input: { name: string; text: string } | undefined): string {
  if (input === undefined || err.field === undefined) return "";
  const place = placeOfField(input.text.replace(/^\uFEFF/, ""), err.field);
  return place === undefined ? "" : ` (at ${input.name}:${place.line}:${place.column})`;
}

export function printJson(io: CliIO, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}
