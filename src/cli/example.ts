/**
 * `chatwire example [--json]`: the whole round trip on built-in data. Renders an OpenAI request with a
 * tool through Qwen3's real template, then parses what Qwen3 answers into an OpenAI assistant message
 * with a validated tool call, and prints the request, the prompt, the completion and the message.
 */
import { loadTemplate } from "../template/index.js";
import type { CommandSpec, OptionTable } from "./help.js";
import { parseOptions } from "./args.js";
import { EXAMPLE_COMPLETION, EXAMPLE_REQUEST, EXAMPLE_TEMPLATE } from "../examples/example-data.js";
import { printJson, type CliIO } from "./io.js";

export const EXAMPLE_OPTIONS = { json: { type: "boolean", description: "print it all as one JSON object" } } as const satisfies OptionTable;

export const EXAMPLE: CommandSpec = {
  summary: "The whole round trip on built-in data: an OpenAI request rendered through Qwen3's template, and Qwen3's answer parsed into an assistant message with a validated tool call.",
  options: EXAMPLE_OPTIONS,
  examples: ["chatwire example"],
};

export async function exampleCommand(argv: string[], io: CliIO): Promise<number> {
  const values = parseOptions(argv, EXAMPLE_OPTIONS);
  const template = await loadTemplate(EXAMPLE_TEMPLATE);
  const prompt = template.render(EXAMPLE_REQUEST);
  const parsed = template.parse(EXAMPLE_COMPLETION, EXAMPLE_REQUEST);
  if (values.json) {
    printJson(io, { template: EXAMPLE_TEMPLATE, format: template.format, request: EXAMPLE_REQUEST, prompt, completion: EXAMPLE_COMPLETION, parsed });
    return 0;
  }
  const section = (title: string, body: string) => io.stdout.write(`=== ${title} ===\n${body}${body.endsWith("\n") ? "" : "\n"}\n`);
  section("request (OpenAI Chat Completions)", JSON.stringify(EXAMPLE_REQUEST, null, 2));
  section(`prompt (built-in template "${EXAMPLE_TEMPLATE}", format ${template.format})`, prompt);
  section("model completion", EXAMPLE_COMPLETION);
  section("parsed (OpenAI assistant message)", JSON.stringify(parsed, null, 2));
  return 0;
}
