/**
 * The `chatwire` command line, runnable in-process: `run(argv, io)` returns the exit code. Every
 * failure is one line on stderr, `chatwire: <code>: <message>`, and exit code 2; never a stack trace.
 */
import { CAPS, capsCommand } from "./caps.js";
import { CHECK, checkCommand } from "./check.js";
import { DETECT, detectCommand } from "./detect.js";
import { EXAMPLE, exampleCommand } from "./example.js";
import { helpText, usageLine, type CommandSpec } from "./help.js";
import { closest } from "./did-you-mean.js";
import { version } from "./version.js";
import { GRAMMAR, grammarCommand } from "./grammar.js";
import { INSPECT, inspectCommand } from "./inspect.js";
import { UsageError, errorLine, type CliIO } from "./io.js";
import { PARSE, parseCommand } from "./parse.js";
import { RENDER, renderCommand } from "./render.js";
import { RESPONSE_TEMPLATE, responseTemplateCommand } from "./response-template.js";
import { SERVE, serveCommand } from "./serve.js";

export type { CliIO } from "./io.js";
export { helpText, usageLine } from "./help.js";

type Command = (argv: string[], io: CliIO) => Promise<number>;

/**
 * The one table of commands, each with its option table (help.ts), from which its options are read,
 * its usage line written and its --help printed: `chatwire help` prints the usage lines, README's
 * CLI block is a copy of that output (test/cli-help.test.ts checks it).
 */
export const COMMANDS: Record<string, { run: Command; spec: CommandSpec }> = {
  render: { run: renderCommand, spec: RENDER },
  parse: { run: parseCommand, spec: PARSE },
  detect: { run: detectCommand, spec: DETECT },
  caps: { run: capsCommand, spec: CAPS },
  grammar: { run: grammarCommand, spec: GRAMMAR },
  check: { run: checkCommand, spec: CHECK },
  example: { run: exampleCommand, spec: EXAMPLE },
  serve: { run: serveCommand, spec: SERVE },
  inspect: { run: inspectCommand, spec: INSPECT },
  "response-template": { run: responseTemplateCommand, spec: RESPONSE_TEMPLATE },
};

export const USAGE = `usage:\n${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${usageLine(name, c.spec)}`)
  .join("\n")}\n\nSRC is a .jinja file, a .json file with chat_template (tokenizer_config.json), a model folder, a .gguf file, or a built-in name (chatml-tools, qwen3).\n\`chatwire <command> --help\` explains every option of a command, with examples; \`chatwire --version\` prints the version.\n`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "help" || name === "--help" || name === "-h") {
    const topic = name === "help" ? rest[0] : undefined;
    if (topic === undefined) {
      io.stdout.write(USAGE);
      return 0;
    }
    // `chatwire help rendr` is the same mistake as `chatwire rendr`: said so, with the suggestion.
    return run([topic, "--help"], io);
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
      io.stdout.write(helpText(name as string, command.spec));
      return 0;
    }
    return await command.run(rest, io);
  } catch (err) {
    io.stderr.write(errorLine(err, io));
    return 2;
  }
}
