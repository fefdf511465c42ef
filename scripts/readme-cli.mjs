#!/usr/bin/env node
/**
 * Rewrites README's CLI block (the fenced block after `## CLI`) with `chatwire help`, and docs/cli.md
 * with every command's `--help`, taken from the sources (src/cli/run.ts, bundled on the fly with
 * esbuild). test/cli-help.test.ts fails while they differ.
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
const { USAGE, COMMANDS, helpText } = await import(pathToFileURL(out).href);
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
if (!CLI_BLOCK.test(readme)) throw new Error("README.md has no ## CLI block");
writeFileSync(join(ROOT, "README.md"), readme.replace(CLI_BLOCK, (_m, open, _body, close) => `${open}${USAGE}${close}`));
console.log("README.md CLI block updated");

const DOCS_HEAD = `# The command line

Generated from the sources by \`node scripts/readme-cli.mjs\`: each section is what
\`chatwire <command> --help\` prints (test/cli-help.test.ts checks that they agree).

Every failure is one line on stderr, \`chatwire: <code>: <message>\`, with exit code 2 (\`check\` exits 1
when a check fails, 0 with warnings only). The codes:

| code | when |
|---|---|
| \`usage\` | the command was called wrong: unknown command or option (with a "did you mean"), a missing or malformed value (\`--var\` takes JSON only) |
| \`invalid_request\` | the request JSON is malformed: not JSON (FILE:line:column), or a field of the wrong shape (named, with FILE:line:column; for a tool schema, the wrong value, e.g. \`"strng" is not a JSON Schema type (allowed: ...)\`, at its own line and column) |
| \`invalid_template\` | the template cannot be loaded or compiled, checked at load (a syntax error gives file:line:column for a template file, or the variant's line and column inside a JSON config) |
| \`template_error\` | the template raised on this conversation (raise_exception), or failed while rendering |
| \`limit_exceeded\` | a render or parse limit was hit (steps, output size, recursion, input size) |
| \`unknown_format\` / \`invalid_format\` | \`--format\` names no registered format / a format description does not compile |
| \`io_error\` | a file cannot be read, or a port cannot be listened on |
| \`missing_dependency\` | an optional package (@huggingface/tokenizers) is not installed |
| \`backend_error\` / \`backend_timeout\` / \`backend_unavailable\` | the backend failed, did not answer in time, or has not answered yet |
| \`internal_error\` | a chatwire bug; please report it with the command line |
`;
const sections = Object.entries(COMMANDS).map(([name, c]) => `## ${name}\n\n\`\`\`\n${helpText(name, c.spec)}\`\`\`\n`);
writeFileSync(join(ROOT, "docs", "cli.md"), `${DOCS_HEAD}\n${sections.join("\n")}`);
console.log("docs/cli.md written");
