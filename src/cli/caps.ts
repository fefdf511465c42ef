/**
 * `chatwire caps --template SRC`: what the template can do, as JSON: its format, capabilities (probed),
 * variants and special tokens.
 */
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CliIO } from "./io.js";
import { reportResponseSpecs } from "../response-template/report.js";

export const CAPS_USAGE = "chatwire caps --template SRC [--template-name NAME] [--json]";

// --json is taken as the other commands take it; caps prints JSON either way (indented without it, one line with it).
export const CAPS_OPTIONS = { ...TEMPLATE_OPTIONS, json: { type: "boolean" } } as const;

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
