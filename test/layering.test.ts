/**
 * The layers of src/ (docs/DESIGN.md) as import rules, checked on every import a file reaches, its own
 * and those of what it imports, transitively (read with the TypeScript preprocessor, so type-only and
 * dynamic imports count): the schema layer never reaches the parser, the inspector never the CLI.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/fixtures.js";

const SRC = join(REPO_ROOT, "src");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The files of src/ that `file` imports directly (packages and node built-ins left out). */
function directImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => resolve(dirname(file), name.replace(/\.js$/, ".ts")))
    .filter((p) => existsSync(p));
}

/** Every file of src/ reachable from `roots` through imports, with the chain that reaches it. */
function reachable(roots: readonly string[]): Map<string, string[]> {
  const chains = new Map<string, string[]>(roots.map((r) => [r, [r]]));
  const queue = [...roots];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of directImports(file)) {
      if (chains.has(next)) continue;
      chains.set(next, [...chains.get(file)!, next]);
      queue.push(next);
    }
  }
  return chains;
}

/** The import chains from files under `from` to files under `to`. */
function violations(from: string, to: string): string[] {
  const found: string[] = [];
  for (const [file, chain] of reachable(files(join(SRC, from)))) {
    if (file.startsWith(join(SRC, to) + "/")) found.push(chain.map((p) => relative(REPO_ROOT, p)).join(" -> "));
  }
  return found;
}

describe("layering of src/", () => {
  it("reads the imports it checks", () => {
    // The walk itself: the parser's entry reaches the format registry and the schema layer.
    const fromParse = [...reachable([join(SRC, "parse/index.ts")]).keys()].map((p) => relative(SRC, p));
    expect(fromParse).toContain(join("formats", "index.ts"));
    expect(fromParse).toContain(join("schema", "aliases.ts"));
    expect(violations("cli", "inspect").length).toBeGreaterThan(0);
  });
  it("src/schema imports nothing from src/parse", () => {
    expect(violations("schema", "parse")).toEqual([]);
  });
  it("src/inspect imports nothing from src/cli", () => {
    expect(violations("inspect", "cli")).toEqual([]);
  });
});
