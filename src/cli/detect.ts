/**
 * `chatwire detect --template SRC [--json]`: the template's tool-call format id and its reasoning
 * markers. Plain output is two lines: the id, then `reasoning: START END` (or `reasoning: none`), then
 * `format: none detected ...` when json-block is only the fallback, `polyfill: ...` when the tool
 * polyfill will be used (the same sentence `check` prints), and a line when the config ships a
 * response template (`response template: compiles`, or its refusals).
 */
import { detectFormat } from "../formats/index.js";
import { parseOptions, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { printJson, type CliIO } from "./io.js";
import { reportResponseSpecs, responseSpecsLine } from "../response-template/report.js";
import { polyfillUse } from "../template/polyfill-note.js";

export const DETECT_OPTIONS = { ...TEMPLATE_OPTIONS, json: { type: "boolean", description: 'print {"format", "detected", "reasoning", "polyfill"} as one JSON line' } } as const satisfies OptionTable;

export const DETECT: CommandSpec = {
  summary:
    "Prints the template's tool-call format id and its reasoning markers; when the template cannot show tools, says that the tool polyfill will be used and which format completions are then parsed in.",
  options: DETECT_OPTIONS,
  usage: { required: ["template"] },
  examples: ["chatwire detect --template qwen3", "chatwire detect --template ./Llama-3.1-8B-Instruct/tokenizer_config.json --json"],
};

export async function detectCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, DETECT_OPTIONS);
  const template = await templateFrom(values);
  const reasoning = template.caps.reasoning;
  const responseSpecs = reportResponseSpecs(template);
  const polyfill = polyfillUse(template);
  const detected = detectFormat(template.source) !== undefined;
  if (values.json) {
    printJson(io, { format: template.format, detected, reasoning: reasoning ?? null, polyfill: polyfill === undefined ? null : { definitions: polyfill.definitions, jsonBlock: polyfill.jsonBlock }, ...responseSpecs });
  } else {
    const markers = reasoning ? `${reasoning.start.join("|")} ${reasoning.end.join("|")}` : "none";
    const line = responseSpecsLine(responseSpecs);
    const extra = [...(detected ? [] : ["format: none detected in the template; json-block is the fallback"]), ...(polyfill === undefined ? [] : [`polyfill: ${polyfill.note}`]), ...(line === undefined ? [] : [line])];
    io.stdout.write(`${template.format}\nreasoning: ${markers}\n${extra.map((l) => `${l}\n`).join("")}`);
  }
  return 0;
}
