/**
 * `chatwire parse --template SRC | --format ID [--request FILE] [--stream [--chunk-size N]]`: reads a raw
 * completion from stdin and prints the assistant message as JSON (`{"message", "finish_reason",
 * "errors"}`), or with --stream one JSON line per chunk delta (`{"delta", "finish_reason"}`), the input
 * cut into N-character deltas (default 8) to show what a streaming client receives. --reasoning-calls text
 * keeps calls written inside reasoning as reasoning text (docs/parsing.md).
 */
import { getFormat } from "../formats/index.js";
import { createStreamParser, parseCompletion } from "../parse/index.js";
import type { Delta, ParseResult, StreamParser } from "../types.js";
import { REASONING_CALLS, type ParseOptions, type ReasoningCalls } from "../parse/index.js";
import type { RenderOptions, TemplateParseOptions } from "../template/index.js";
import { parseOptions, parsePolyfill, parseVars, positiveInt, templateFrom, POLYFILL_OPTIONS, TEMPLATE_OPTIONS, VAR_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { UsageError, printJson, readAll, readJsonInput, type CliIO } from "./io.js";

export const PARSE_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  format: {
    type: "string",
    value: "ID",
    description: "parse in this tool-call format instead of a template's (hermes, llama3-json, mistral, ...; see docs/formats.md)",
    example: "--format hermes",
  },
  request: {
    type: "string",
    value: "FILE",
    description: "the request the completion answers: its tools validate the calls (stdin is the completion, so not -)",
    example: "--request req.json",
  },
  ...VAR_OPTIONS,
  ...POLYFILL_OPTIONS,
  "prompt-suffix": {
    type: "string",
    value: "TEXT",
    description: "the end of the prompt the completion continues, when the generation prompt opened reasoning (with --template it is rendered from --request); in bash, $'...' writes a newline as \\n",
    example: "--prompt-suffix $'<think>\\n'",
  },
  "reasoning-calls": {
    type: "string",
    value: "call|text",
    description: "a tool call written inside reasoning: a call (default), or left as reasoning text",
    example: "--reasoning-calls text",
  },
  stream: { type: "boolean", description: "parse as a stream, printing each delta as a JSON line" },
  "chunk-size": { type: "string", value: "N", within: "stream", description: "with --stream: the completion is cut into deltas of N characters (default 8)", example: "--chunk-size 1" },
} as const satisfies OptionTable;

export const PARSE: CommandSpec = {
  summary:
    'Reads a raw model completion on stdin and prints the OpenAI assistant message ({"message", "finish_reason", "errors"}), or with --stream one JSON line per streamed delta.',
  options: PARSE_OPTIONS,
  usage: { required: ["template", "format"], alternatives: [["template", "template-name", "var", "polyfill"], ["format"]], tail: "< completion" },
  examples: [
    "echo '<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>' | chatwire parse --format hermes",
    "chatwire parse --template qwen3 --request req.json --stream < completion.txt",
  ],
};

export async function parseCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, PARSE_OPTIONS);
  if ((values.template === undefined) === (values.format === undefined)) {
    throw new UsageError("give exactly one of --template SRC or --format ID");
  }
  // --var and --polyfill say how the prompt was rendered, which only a template can use.
  if (values.format !== undefined && (values.var !== undefined || values.polyfill !== undefined)) {
    throw new UsageError("--var and --polyfill describe the rendered prompt and need --template SRC, not --format");
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

interface ParserValues {
  template?: string | undefined;
  format?: string | undefined;
  "template-name"?: string | undefined;
  var?: string[] | undefined;
  polyfill?: string | undefined;
  "prompt-suffix"?: string | undefined;
  "reasoning-calls"?: string | undefined;
}

async function parserFor(values: ParserValues, request: unknown): Promise<Parser> {
  // --prompt-suffix: the end of the prompt the completion continues (e.g. a generation prompt that opened <think>).
  const parsing: ParseOptions = values["prompt-suffix"] === undefined ? {} : { promptSuffix: values["prompt-suffix"] };
  // --reasoning-calls: whether a call written inside reasoning is a call (default) or reasoning text.
  const reasoningCalls = values["reasoning-calls"];
  if (reasoningCalls !== undefined) {
    if (!REASONING_CALLS.includes(reasoningCalls as ReasoningCalls)) throw new UsageError(`--reasoning-calls must be call or text, got ${JSON.stringify(reasoningCalls)}`);
    parsing.reasoningCalls = reasoningCalls as ReasoningCalls;
  }
  if (values.format !== undefined) {
    const format = getFormat(values.format);
    return {
      oneShot: (completion) => parseCompletion(format, completion, request, parsing),
      stream: () => createStreamParser(format, request, parsing),
    };
  }
  const render: RenderOptions = { variables: parseVars(values.var) };
  const polyfill = parsePolyfill(values.polyfill);
  if (polyfill !== undefined) render.polyfill = polyfill;
  const options: TemplateParseOptions = { ...parsing, render };
  const template = await templateFrom(values);
  return {
    oneShot: (completion) => template.parse(completion, request, options),
    stream: () => template.streamParser(request, options),
  };
}

function printDeltas(io: CliIO, deltas: Delta[]): void {
  for (const { finish_reason, ...delta } of deltas) printJson(io, { delta, finish_reason: finish_reason ?? null });
}
