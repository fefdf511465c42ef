/**
 * `chatwire --version`: the version in the package's own package.json, read at run time. The CLI
 * lives two folders below it however it is run (dist/cli/main.js installed, src/cli/ in tests,
 * .tmp/example/ for `npm run example`), so one relative path finds it.
 */
import { readText } from "../template/node-fs.js";

export async function version(): Promise<string> {
  const { fileURLToPath } = await import("node:url");
  const json = JSON.parse(await readText(fileURLToPath(new URL("../../package.json", import.meta.url)))) as { version?: unknown };
  return typeof json.version === "string" ? json.version : "unknown";
}
