/**
 * `chatwire response-template --format ID | --template SRC [--start-anchor TEXT]`: the family written
 * as a transformers 5.x `response_template` (docs/response-templates.md, "Export"), printed as the
 * `{"response_template": ...}` to merge into tokenizer_config.json. With a chat template, the family is
 * the detected one, the start anchor its assistant header (start-anchor.ts; `--start-anchor` sets it), and
 * a region with two spellings gets the one the template writes. What the form cannot say is one
 * `chatwire: note: ...` line each on stderr; a family it cannot express at all is an error.
 */
import { ChatwireError } from "../errors.js";
import { getFormat } from "../formats/index.js";
import { exportResponseTemplate } from "../response-template/export.js";
import { assistantHeader } from "../response-template/start-anchor.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { UsageError, type CliIO } from "./io.js";

export const RESPONSE_TEMPLATE_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  format: { type: "string", value: "ID", description: "write this format (hermes, qwen3-coder, ...) instead of the template's detected one", example: "--format hermes" },
  "start-anchor": {
    type: "string",
    value: "TEXT",
    description: "the text a response starts after (default: the template's assistant header, or none with --format); in bash, $'...' writes a newline as \\n",
    example: "--start-anchor $'<|im_start|>assistant\\n'",
  },
} as const satisfies OptionTable;

export const RESPONSE_TEMPLATE: CommandSpec = {
  summary:
    'Writes a tool-call format as a transformers 5.x response_template and prints {"response_template": ...} to merge into tokenizer_config.json (docs/response-templates.md, "Export"). What the form cannot say is one `chatwire: note:` line each on stderr.',
  options: RESPONSE_TEMPLATE_OPTIONS,
  usage: { required: ["format", "template"], alternatives: [["format"], ["template", "template-name"]] },
  examples: ["chatwire response-template --template ./Qwen3-8B", "chatwire response-template --format hermes --start-anchor $'<|im_start|>assistant\\n'"],
};

export async function responseTemplateCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, RESPONSE_TEMPLATE_OPTIONS);
  if ((values.template === undefined) === (values.format === undefined)) throw new UsageError("give exactly one of --template SRC or --format ID");
  const template = values.template === undefined ? undefined : await templateFrom(values);
  const id = values.format ?? template!.format;
  const format = getFormat(id);
  const anchor = values["start-anchor"] ?? (template === undefined ? undefined : assistantHeader(template, format));
  const exported = exportResponseTemplate(format, { ...(anchor === undefined ? {} : { startAnchor: anchor }), ...(template === undefined ? {} : { templateSource: template.source }) });
  if (!exported.ok) {
    throw new ChatwireError("invalid_format", `${id} cannot be written as a response template: ${exported.reasons.map((r) => `${r.part}: ${r.reason}`).join("; ")}`);
  }
  io.stdout.write(`${JSON.stringify({ response_template: exported.template }, null, 2)}\n`);
  for (const note of exported.omitted) io.stderr.write(`chatwire: note: ${note.part}: ${note.reason}\n`);
  return 0;
}
