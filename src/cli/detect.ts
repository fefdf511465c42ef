/**
 * `chatwire detect --template SRC [--json]`: the template's tool-call format id and its reasoning
 * markers. Plain output is two lines: the id, then `reasoning: START END` (or `reasoning: none`), and a
 * third when the config ships a response template (`response template: compiles`, or its refusals).
 */
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import { printJson, type CliIO } from "./io.js";
import { reportResponseSpecs, responseSpecsLine } from "../response-template/report.js";

export const DETECT_USAGE = "chatwire detect --template SRC [--template-name NAME] [--json]";

export const DETECT_OPTIONS = { ...TEMPLATE_OPTIONS, json: { type: "boolean" } } as const;

export async function detectCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, DETECT_OPTIONS);
  const template = await templateFrom(values);
  const reasoning = template.caps.reasoning;
  const responseSpecs = reportResponseSpecs(template);
  if (values.json) {
    printJson(io, { format: template.format, reasoning: reasoning ?? null, ...responseSpecs });
  } else {
    const markers = reasoning ? `${reasoning.start.join("|")} ${reasoning.end.join("|")}` : "none";
    const line = responseSpecsLine(responseSpecs);
    io.stdout.write(`${template.format}\nreasoning: ${markers}\n${line === undefined ? "" : `${line}\n`}`);
  }
  return 0;
}
