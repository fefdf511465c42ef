/**
 * `chatwire grammar --template SRC | --format ID --request FILE [--kind gbnf|json-schema]`: the
 * constraint for a completion of the request. gbnf (default): a llama.cpp grammar for the template's
 * tool-call format (json-block when the template needs the tool polyfill), printed as is.
 * json-schema: the JSON Schema of one call object `{"name", "arguments"}`, for response_format.
 * structural-tag: per tool the fixed text around its JSON arguments (vLLM / SGLang / xgrammar).
 */
import { getFormat } from "../formats/index.js";
import { buildGbnf, buildStructuralTag, buildToolJsonSchema, gbnfForTemplate } from "../grammar/index.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { UsageError, readJsonInput, type CliIO } from "./io.js";

export const GRAMMAR_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  format: { type: "string", value: "ID", description: "build for this tool-call format instead of a template's", example: "--format hermes" },
  request: { type: "string", value: "FILE|-", description: "the request with its tools (required; - is stdin)", example: "--request req.json" },
  kind: { type: "string", value: "gbnf|json-schema|structural-tag", description: "what to print (default gbnf)", example: "--kind json-schema" },
} as const satisfies OptionTable;

export const GRAMMAR: CommandSpec = {
  summary: "Prints the constraint for a completion of the request: a llama.cpp GBNF grammar (default), the JSON Schema of one call, or an xgrammar structural tag.",
  options: GRAMMAR_OPTIONS,
  usage: { required: ["template", "format", "request"], alternatives: [["template", "template-name"], ["format"]] },
  examples: ["chatwire grammar --template qwen3 --request req.json > tools.gbnf", "chatwire grammar --format hermes --request req.json --kind structural-tag"],
};

export async function grammarCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, GRAMMAR_OPTIONS);
  const kind = values.kind ?? "gbnf";
  if (kind !== "gbnf" && kind !== "json-schema" && kind !== "structural-tag") {
    throw new UsageError(`--kind must be gbnf, json-schema or structural-tag, got ${JSON.stringify(kind)}`);
  }
  if (values.request === undefined) throw new UsageError("--request FILE is required (the chat request with its tools)");
  const request = await readJsonInput(values.request, io);
  if (kind === "json-schema") {
    io.stdout.write(`${JSON.stringify(buildToolJsonSchema(request), null, 2)}\n`);
    return 0;
  }
  if ((values.template === undefined) === (values.format === undefined)) throw new UsageError("give exactly one of --template SRC or --format ID");
  if (kind === "structural-tag") {
    const format = values.format !== undefined ? getFormat(values.format) : getFormat((await templateFrom(values)).formatFor(request));
    io.stdout.write(`${JSON.stringify(buildStructuralTag(format, request), null, 2)}\n`);
    return 0;
  }
  const grammar = values.format !== undefined ? buildGbnf(getFormat(values.format), request) : gbnfForTemplate(await templateFrom(values), request);
  io.stdout.write(grammar);
  return 0;
}
