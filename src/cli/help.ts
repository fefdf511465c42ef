/**
 * Each command's options are one table (`CommandSpec`): an option's name, type, value name,
 * description and example are written once, and the three things made from them cannot disagree:
 * the options node:util's parseArgs reads (args.ts, parseOptions), the usage line, and what
 * `chatwire <command> --help` prints. The installed package has only this and the README to go by,
 * so every option is explained here; docs/cli.md is this text for every command
 * (scripts/readme-cli.mjs writes it, test/cli-help.test.ts checks it).
 */

/** One option of a command. */
export interface OptionSpec {
  /** A flag, or an option with a value (read as text; the command converts and checks it). */
  readonly type: "boolean" | "string";
  /** The value's name in the usage line and --help: `SRC`, `FILE|-`, `auto|always|never`. Options with a value only. */
  readonly value?: string;
  /** Repeatable: `[--var k=JSON]...`. */
  readonly multiple?: boolean;
  /** Shown in the usage line inside this other option's brackets: it means something only with that one. */
  readonly within?: string;
  /** What it means, for --help. */
  readonly description: string;
  /** The option as one writes it (`--var enable_thinking=false`), printed under the description. Every option with a value has one. */
  readonly example?: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface CommandSpec {
  /** What the command does, for --help. */
  summary: string;
  options: OptionTable;
  /** How the usage line arranges the options (all of them, in the table's order, unless said here). */
  usage?: {
    /** Shown without brackets: the command needs them (it says so itself when one is missing). */
    required?: readonly string[];
    /** Two sets of options of which one is given (`--template SRC ... | --format ID`): shown first, split by `|`. */
    alternatives?: readonly [readonly string[], readonly string[]];
    /** What follows the options (`< completion`). */
    tail?: string;
  };
  examples: readonly string[];
}

/** `--name VALUE`. */
function optionWord(name: string, option: OptionSpec): string {
  return option.value === undefined ? `--${name}` : `--${name} ${option.value}`;
}

/** `chatwire <name> ...`: every option, required ones bare, the rest in brackets (with the ones that go with it inside). */
export function usageLine(name: string, spec: CommandSpec): string {
  const required = new Set(spec.usage?.required ?? []);
  const shown = (option: string): string => {
    const entry = spec.options[option] as OptionSpec;
    const inner = Object.keys(spec.options).filter((o) => spec.options[o]?.within === option);
    const word = [optionWord(option, entry), ...inner.map((o) => shown(o))].join(" ");
    return required.has(option) ? word : `[${word}]${entry.multiple === true ? "..." : ""}`;
  };
  const [first, second] = spec.usage?.alternatives ?? [[], []];
  const placed = new Set([...first, ...second]);
  const rest = Object.keys(spec.options).filter((o) => !placed.has(o) && spec.options[o]?.within === undefined);
  const words = rest.map(shown).join(" ");
  const options = placed.size === 0 ? words : `${first.map(shown).join(" ")} | ${second.map(shown).join(" ")}${words === "" ? "" : `  ${words}`}`;
  return [`chatwire ${name}`, options, spec.usage?.tail ?? ""].filter((part) => part !== "").join(" ");
}

const LINE = 100;

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** The text of `chatwire <name> --help`: the usage line, the summary, every option with its meaning and example, and examples. */
export function helpText(name: string, spec: CommandSpec): string {
  const entries: [string, string[]][] = Object.entries(spec.options).map(([option, entry]) => [
    optionWord(option, entry),
    entry.example === undefined ? [entry.description] : [entry.description, `e.g. ${entry.example}`],
  ]);
  entries.push(["--help", ["this text"]]);
  const left = Math.min(34, Math.max(...entries.map(([l]) => l.length)) + 2);
  const options = entries.flatMap(([l, paragraphs]) => {
    const lines = paragraphs.flatMap((p) => wrap(p, LINE - left - 2));
    const first = l.length + 2 > left ? [`  ${l}`, `  ${" ".repeat(left)}${lines[0]}`] : [`  ${l.padEnd(left)}${lines[0]}`];
    return [...first, ...lines.slice(1).map((x) => `  ${" ".repeat(left)}${x}`)];
  });
  return `usage: ${usageLine(name, spec)}\n\n${wrap(spec.summary, LINE).join("\n")}\n\noptions:\n${options.join("\n")}\n\nexamples:\n${spec.examples.map((e) => `  ${e}`).join("\n")}\n`;
}
