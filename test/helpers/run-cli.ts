/** Runs the `chatwire` CLI in-process (src/cli/run.ts) with `stdin`, collecting what it writes. */
import { Readable } from "node:stream";
import { run } from "../../src/cli/run.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(argv: string[], stdin = ""): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await run(argv, {
    stdin: Readable.from(stdin === "" ? [] : [Buffer.from(stdin, "utf8")]),
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}
