/**
 * `chatwire render --template SRC [--request FILE|-] [--no-generation-prompt] [--continue-final-message]
 *  [--var k=JSON]... [--now ISO] [--json]`: prints the prompt exactly as the model's template renders
 * it (byte-identical to transformers), with no added newline.
 */
import { UsageError, readJsonInput, printJson, type CliIO } from "./io.js";
import { parseOptions, parseVars, templateFrom, TEMPLATE_OPTIONS } from "./args.js";
import type { RenderOptions } from "../template/index.js";

export const RENDER_USAGE =
  "chatwire render --template SRC [--request FILE|-] [--no-generation-prompt] [--continue-final-message] [--var k=JSON]... [--now ISO-DATE] [--tokens [--tokenizer FILE] [--special-from-data] [--assistant-mask]] [--json]";

export async function renderCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, {
    ...TEMPLATE_OPTIONS,
    request: { type: "string" },
    "no-generation-prompt": { type: "boolean" },
    "continue-final-message": { type: "boolean" },
    var: { type: "string", multiple: true },
    now: { type: "string" },
    json: { type: "boolean" },
    tokens: { type: "boolean" },
    tokenizer: { type: "string" },
    "special-from-data": { type: "boolean" },
    "assistant-mask": { type: "boolean" },
  });
  // Options first, so a usage mistake is reported before any file or stdin is read.
  const options: RenderOptions = {
    variables: parseVars(values.var),
    onWarning: (message) => io.stderr.write(`chatwire: warning: ${message}\n`),
  };
  if (values["no-generation-prompt"]) options.addGenerationPrompt = false;
  if (values["continue-final-message"]) options.continueFinalMessage = true;
  if (values.now !== undefined) options.now = parseDate(values.now);
  const template = await templateFrom(values);
  const tokens = values.tokens ? await import("./tokens.js") : undefined;
  const tokenizer = tokens && (await tokens.tokenizerFor(values.tokenizer, values.template as string));
  const request = await readJsonInput(values.request ?? "-", io);
  if (tokens && tokenizer) {
    const mask = values["assistant-mask"] === true;
    const { prompt, ids, generation, assistantMask } = tokens.renderTokenIds(template, request, options, tokenizer, values["special-from-data"] === true, mask);
    const extra = mask ? { generation, assistant_mask: assistantMask } : {};
    printJson(io, values.json ? { prompt, ids, ...extra } : { ids, ...extra });
    return 0;
  }
  const prompt = template.render(request, options);
  if (values.json) {
    printJson(io, { prompt });
  } else {
    io.stdout.write(prompt);
  }
  return 0;
}

function parseDate(text: string): Date {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--now expects an ISO date such as 2026-01-02T03:04:05, got ${JSON.stringify(text)}`);
  return date;
}
