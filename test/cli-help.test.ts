/**
 * README's CLI block is `chatwire help`, and each usage line names exactly the options its command
 * accepts (issue 11: the README lacked half the flags; --template-name was in neither).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMANDS, USAGE } from "../src/cli/run.js";

describe("CLI help", () => {
  it("README's CLI block is exactly `chatwire help` (regenerate: node scripts/readme-cli.mjs)", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block = /## CLI\n\n```\n([^]*?)```\n/.exec(readme)?.[1];
    expect(block).toBe(USAGE);
  });

  for (const [name, command] of Object.entries(COMMANDS)) {
    it.skipIf(command.options === undefined)(`${name}: the usage line and the accepted options agree`, () => {
      const inUsage = new Set([...command.usage.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]));
      expect([...inUsage].sort()).toEqual(Object.keys(command.options ?? {}).sort());
    });
  }

  it("every command that loads a template takes --template-name", () => {
    for (const command of Object.values(COMMANDS)) {
      if (command.usage.includes("--template SRC")) expect(command.usage).toContain("--template-name NAME");
    }
  });
});
