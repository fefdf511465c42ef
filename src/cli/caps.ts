/**
 * `chatwire caps --template SRC`: what the template can do, as JSON: its format, capabilities (probed),
 * variants and special tokens.
 */
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import type { CliIO } from "./io.js";
import { reportResponseSpecs } from "../response-template/report.js";

// --json is taken as the other commands take it; caps prints JSON either way (indented without it, one line with it).
export const CAPS_OPTIONS = { ...TEMPLATE_OPTIONS, json: { type: "boolean", description: "print the JSON on one line (without it, indented: caps always prints JSON)" } } as const satisfies OptionTable;

export const CAPS: CommandSpec = {
  summary: "Prints what the template can do, as JSON: format, probed capabilities (tools, system role, content parts, reasoning, variables), variants and special tokens.",
  options: CAPS_OPTIONS,
  usage: { required: ["template"] },
  examples: ["chatwire caps --template qwen3"],
};

export async function capsCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, CAPS_OPTIONS);
  const template = await templateFrom(values);
  const report = {
    origin: template.origin,
    format: template.format,
    variants: Object.keys(template.variants),
    specialTokens: template.specialTokens,
    ...template.caps,
    ...reportResponseSpecs(template),
  };
  io.stdout.write(`${JSON.stringify(report, null, values.json ? undefined : 2)}\n`);
  return 0;
}
