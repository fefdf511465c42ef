#!/usr/bin/env node
/**
 * Rewrites README's CLI block (the fenced block after `## CLI`) with `chatwire help`, taken from the
 * sources (src/cli/run.ts, bundled on the fly with esbuild). test/cli-help.test.ts fails while they differ.
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CLI_BLOCK = /(## CLI\n\n```\n)([^]*?)(```\n)/;

const out = join(ROOT, ".tmp", "readme-cli", "run.mjs");
mkdirSync(dirname(out), { recursive: true });
await build({ entryPoints: [join(ROOT, "src/cli/run.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: out, logLevel: "warning" });
const { USAGE } = await import(pathToFileURL(out).href);
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
if (!CLI_BLOCK.test(readme)) throw new Error("README.md has no ## CLI block");
writeFileSync(join(ROOT, "README.md"), readme.replace(CLI_BLOCK, (_m, open, _body, close) => `${open}${USAGE}${close}`));
console.log("README.md CLI block updated");
