/**
 * `chatwire check --template SRC [--tokenizer FILE] [--format ID] [--json] [--reference PYTHON]`: the
 * conformance report of src/check (docs/check.md). Exit code 1 when a check fails, 0 with warnings
 * only, 2 for bad usage.
 */
import { checkTemplate, formatReport, type CheckOptions } from "../check/index.js";
import { getFormat } from "../formats/index.js";
import { tokenizerBeside } from "../template/tokenizer-beside.js";
import { loadTokenizer } from "../tokens/index.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { pythonReference } from "./check-reference.js";
import type { CliIO } from "./io.js";

export const CHECK_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  tokenizer: {
    type: "string",
    value: "FILE",
    description: "a tokenizer.json or .gguf for the token checks; default: the one that comes with --template (model folder, beside tokenizer_config.json, .gguf)",
    example: "--tokenizer ./Qwen3-8B/tokenizer.json",
  },
  format: { type: "string", value: "ID", description: "check parsing in this format instead of the detected one", example: "--format hermes" },
  json: { type: "boolean", description: "print the report as JSON (its shape is documented in docs/check.md)" },
  reference: {
    type: "string",
    value: "PYTHON",
    description: "also compare every render byte for byte with transformers run by this Python (it must have transformers installed)",
    example: "--reference .venv/bin/python",
  },
} as const satisfies OptionTable;

export const CHECK: CommandSpec = {
  summary:
    "A conformance report on the template (docs/check.md): renders a battery of conversations, checks prefixes, tool history, reconstruction and, with a tokenizer, special tokens, BOS and token boundaries. Exit 1 when a check fails, 0 with warnings only.",
  options: CHECK_OPTIONS,
  usage: { required: ["template"] },
  examples: ["chatwire check --template ./Qwen3-8B", "chatwire check --template model.jinja --reference .venv/bin/python --json"],
};

export async function checkCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, CHECK_OPTIONS);
  const template = await templateFrom(values);
  const options: CheckOptions = {};
  if (values.format !== undefined) options.format = getFormat(values.format).id;
  // --tokenizer, else the vocabulary that comes with the template (a folder's tokenizer.json, the one
  // beside a tokenizer_config.json, a .gguf's own): the token checks run whenever there is one.
  const tokenizerSource = values.tokenizer ?? (await tokenizerBeside(values.template as string));
  if (tokenizerSource !== undefined) options.tokenizer = await loadTokenizer(tokenizerSource);
  if (values.reference !== undefined) options.reference = pythonReference(values.reference);
  const report = await checkTemplate(template, options);
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  return report.summary.errors > 0 ? 1 : 0;
}
