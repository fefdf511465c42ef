/**
 * `chatwire parse --template SRC | --format ID [--request FILE] [--stream [--chunk-size N]]`: reads a raw
 * completion from stdin and prints the assistant message as JSON (`{"message", "finish_reason",
 * "errors"}`), or with --stream one JSON line per chunk delta (`{"delta", "finish_reason"}`), the input
 * cut into N-character deltas (default 8) to show what a streaming client receives.
 */
import { getFormat } from "../formats/index.js";
import { createStreamParser, parseCompletion } from "../parse/index.js";
import type { Delta, ParseResult, StreamParser } from "../types.js";
import { parseOptions, positiveInt, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import { UsageError, printJson, readAll, readJsonInput, type CliIO } from "./io.js";

export const PARSE_USAGE = "chatwire parse --template SRC | --format ID [--request FILE] [--stream [--chunk-size N]] < completion";

export async function parseCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, {
    ...TEMPLATE_OPTIONS,
    format: { type: "string" },
    request: { type: "string" },
    stream: { type: "boolean" },
    "chunk-size": { type: "string" },
  });
  if ((values.template === undefined) === (values.format === undefined)) {
    throw new UsageError("give exactly one of --template SRC or --format ID");
  }
  if (values.request === "-") throw new UsageError("--request cannot be stdin here: stdin is the completion");
  const request = values.request === undefined ? undefined : await readJsonInput(values.request, io);
  const chunkSize = positiveInt(values["chunk-size"], "--chunk-size", 8);
  const parser = await parserFor(values, request);
  const completion = await readAll(io.stdin);
  if (!values.stream) {
    printJson(io, parser.oneShot(completion));
    return 0;
  }
  const stream = parser.stream();
  const chars = Array.from(completion); // code points: a delta never splits a character
  for (let i = 0; i < chars.length; i += chunkSize) printDeltas(io, stream.push(chars.slice(i, i + chunkSize).join("")));
  printDeltas(io, stream.end());
  return 0;
}

interface Parser {
  oneShot(completion: string): ParseResult;
  stream(): StreamParser;
}

async function parserFor(values: { template?: string | undefined; format?: string | undefined; "template-name"?: string | undefined }, request: unknown): Promise<Parser> {
  if (values.format !== undefined) {
    const format = getFormat(values.format);
    return {
      oneShot: (completion) => parseCompletion(format, completion, request),
      stream: () => createStreamParser(format, request),
    };
  }
  const template = await templateFrom(values);
  return {
    oneShot: (completion) => template.parse(completion, request),
    stream: () => template.streamParser(request),
  };
}

function printDeltas(io: CliIO, deltas: Delta[]): void {
  for (const { finish_reason, ...delta } of deltas) printJson(io, { delta, finish_reason: finish_reason ?? null });
}
