/**
 * `chatwire check --template SRC [--tokenizer FILE] [--format ID] [--json] [--reference PYTHON]`: the
 * conformance report of src/check (docs/check.md). Exit code 1 when a check fails, 0 with warnings
 * only, 2 for bad usage.
 */
import { checkTemplate, formatReport, type CheckOptions } from "../check/index.js";
import { getFormat } from "../formats/index.js";
import { tokenizerBeside } from "../template/tokenizer-beside.js";
import { loadTokenizer } from "../tokens/index.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS, type Options } from "./args.js";
import { pythonReference } from "./check-reference.js";
import type { CliIO } from "./io.js";

export const CHECK_USAGE = "chatwire check --template SRC [--template-name NAME] [--tokenizer FILE] [--format ID] [--json] [--reference PYTHON]";

export const CHECK_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  tokenizer: { type: "string" },
  format: { type: "string" },
  json: { type: "boolean" },
  reference: { type: "string" },
} as const satisfies Options;

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
