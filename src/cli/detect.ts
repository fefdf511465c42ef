/**
 * `chatwire detect --template SRC [--json]`: the template's tool-call format id and its reasoning
 * markers. Plain output is two lines: the id, then `reasoning: START END` (or `reasoning: none`).
 */
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import { printJson, type CliIO } from "./io.js";

export const DETECT_USAGE = "chatwire detect --template SRC [--template-name NAME] [--json]";

export const DETECT_OPTIONS = { ...TEMPLATE_OPTIONS, json: { type: "boolean" } } as const;

export async function detectCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, DETECT_OPTIONS);
  const template = await templateFrom(values);
  const reasoning = template.caps.reasoning;
  if (values.json) {
    printJson(io, { format: template.format, reasoning: reasoning ?? null });
  } else {
    const markers = reasoning ? `${reasoning.start.join("|")} ${reasoning.end.join("|")}` : "none";
    io.stdout.write(`${template.format}\nreasoning: ${markers}\n`);
  }
  return 0;
}
