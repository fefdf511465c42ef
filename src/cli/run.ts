/**
 * The `chatwire` command line, runnable in-process: `run(argv, io)` returns the exit code. Every
 * failure is one line on stderr, `chatwire: <code>: <message>`, and exit code 2; never a stack trace.
 */
import type { Options } from "./args.js";
import { CAPS_OPTIONS, CAPS_USAGE, capsCommand } from "./caps.js";
import { CHECK_OPTIONS, CHECK_USAGE, checkCommand } from "./check.js";
import { DETECT_OPTIONS, DETECT_USAGE, detectCommand } from "./detect.js";
import { EXAMPLE_OPTIONS, EXAMPLE_USAGE, exampleCommand } from "./example.js";
import { helpText } from "./help.js";
import { closest } from "./did-you-mean.js";
import { version } from "./version.js";
import { GRAMMAR_OPTIONS, GRAMMAR_USAGE, grammarCommand } from "./grammar.js";
import { INSPECT_OPTIONS, INSPECT_USAGE, inspectCommand } from "./inspect.js";
import { UsageError, errorLine, type CliIO } from "./io.js";
import { PARSE_OPTIONS, PARSE_USAGE, parseCommand } from "./parse.js";
import { RENDER_OPTIONS, RENDER_USAGE, renderCommand } from "./render.js";
import { RESPONSE_TEMPLATE_OPTIONS, RESPONSE_TEMPLATE_USAGE, responseTemplateCommand } from "./response-template.js";
import { SERVE_OPTIONS, SERVE_USAGE, serveCommand } from "./serve.js";

export type { CliIO } from "./io.js";
export { helpText } from "./help.js";

type Command = (argv: string[], io: CliIO) => Promise<number>;

/**
 * The one table of commands: `chatwire help` prints it, README's CLI block is a copy of that output
 * (test/cli-help.test.ts checks both, and that each usage line names exactly the options it accepts).
 */
export const COMMANDS: Record<string, { run: Command; usage: string; options?: Options }> = {
  render: { run: renderCommand, usage: RENDER_USAGE, options: RENDER_OPTIONS },
  parse: { run: parseCommand, usage: PARSE_USAGE, options: PARSE_OPTIONS },
  detect: { run: detectCommand, usage: DETECT_USAGE, options: DETECT_OPTIONS },
  caps: { run: capsCommand, usage: CAPS_USAGE, options: CAPS_OPTIONS },
  grammar: { run: grammarCommand, usage: GRAMMAR_USAGE, options: GRAMMAR_OPTIONS },
  check: { run: checkCommand, usage: CHECK_USAGE, options: CHECK_OPTIONS },
  example: { run: exampleCommand, usage: EXAMPLE_USAGE, options: EXAMPLE_OPTIONS },
  serve: { run: serveCommand, usage: SERVE_USAGE, options: SERVE_OPTIONS },
  inspect: { run: inspectCommand, usage: INSPECT_USAGE, options: INSPECT_OPTIONS },
  "response-template": { run: responseTemplateCommand, usage: RESPONSE_TEMPLATE_USAGE, options: RESPONSE_TEMPLATE_OPTIONS },
};

export const USAGE = `usage:\n${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join("\n")}\n\nSRC is a .jinja file, a .json file with chat_template (tokenizer_config.json), a model folder, a .gguf file, or a built-in name (chatml-tools, qwen3).\n\`chatwire <command> --help\` explains every option of a command, with examples; \`chatwire --version\` prints the version.\n`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help" || name === "-h") {
    const about = name === "help" && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    io.stdout.write(about === undefined ? USAGE : helpText(rest[0] as string, about.usage));
    return 0;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    io.stdout.write(`${await version()}\n`);
    return 0;
  }
  try {
    const command = name === undefined ? undefined : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (command === undefined) {
      if (name === undefined) throw new UsageError("no command given; try `chatwire help`");
      const near = closest(name, Object.keys(COMMANDS));
      throw new UsageError(`unknown command ${JSON.stringify(name)}${near === undefined ? "" : `; did you mean \`${near}\`?`} (try \`chatwire help\`)`);
    }
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout.write(helpText(name as string, command.usage));
      return 0;
    }
    return await command.run(rest, io);
  } catch (err) {
    io.stderr.write(errorLine(err, io));
    return 2;
  }
}
