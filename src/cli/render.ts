/**
 * `chatwire render --template SRC [--request FILE|-] [--no-generation-prompt] [--continue-final-message]
 *  [--var k=JSON]... [--now ISO] [--json]`: prints the prompt exactly as the model's template renders
 * it (byte-identical to transformers), with no added newline.
 */
import { UsageError, readJsonInput, printJson, type CliIO } from "./io.js";
import { parseOptions, parsePolyfill, parseVars, templateFrom, POLYFILL_OPTIONS, TEMPLATE_OPTIONS, VAR_OPTIONS } from "./args.js";
import type { CommandSpec, OptionTable } from "./help.js";
import type { RenderOptions } from "../template/index.js";

export const RENDER_OPTIONS = {
  ...TEMPLATE_OPTIONS,
  request: { type: "string", value: "FILE|-", description: "the request JSON (default -, stdin)", example: "--request req.json" },
  "no-generation-prompt": { type: "boolean", description: "render without the assistant turn's opening (add_generation_prompt=False)" },
  "continue-final-message": { type: "boolean", description: "end the prompt inside the last (assistant) message, to continue it" },
  ...VAR_OPTIONS,
  now: { type: "string", value: "ISO-DATE", description: "the date templates print (strftime_now); default: now", example: "--now 2026-01-02T03:04:05" },
  ...POLYFILL_OPTIONS,
  tokens: { type: "boolean", description: 'print token ids ({"ids": [...]}) instead of text; special tokens come only from template text' },
  tokenizer: {
    type: "string",
    value: "FILE",
    within: "tokens",
    description: "with --tokens: a tokenizer.json, a model folder or a .gguf; default: the one that comes with --template (model folder, beside tokenizer_config.json, .gguf)",
    example: "--tokenizer ./Qwen3-8B/tokenizer.json",
  },
  "special-from-data": {
    type: "boolean",
    within: "tokens",
    description: "with --tokens: let special-token text inside request data become special tokens (as a text prompt would); default: it stays text",
  },
  "assistant-mask": { type: "boolean", within: "tokens", description: "with --tokens: also print which ids are assistant output (generation spans), for training" },
  json: { type: "boolean", description: 'print {"prompt": ...} (with --tokens: {"prompt", "ids"}) as one JSON line' },
} as const satisfies OptionTable;

export const RENDER: CommandSpec = {
  summary: "Renders an OpenAI Chat Completions or Responses request through the template and prints the prompt exactly as transformers' apply_chat_template does (no newline added).",
  options: RENDER_OPTIONS,
  usage: { required: ["template"] },
  examples: [
    "echo '{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}' | chatwire render --template qwen3",
    "chatwire render --template ./Qwen3-8B --request req.json --var enable_thinking=false --tokens",
  ],
};

export async function renderCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, RENDER_OPTIONS);
  // Options first, so a usage mistake is reported before any file or stdin is read.
  const options: RenderOptions = {
    variables: parseVars(values.var),
    onWarning: (message) => io.stderr.write(`chatwire: warning: ${message}\n`),
  };
  if (values["no-generation-prompt"]) options.addGenerationPrompt = false;
  if (values["continue-final-message"]) options.continueFinalMessage = true;
  if (values.now !== undefined) options.now = parseDate(values.now);
  const polyfill = parsePolyfill(values.polyfill);
  if (polyfill !== undefined) options.polyfill = polyfill;
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
