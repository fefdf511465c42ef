/**
 * The `chatwire` executable (built to dist/cli/main.js). All logic is in run.ts, which tests call
 * in-process; this file only connects it to the real process. `exitCode` rather than `exit()` lets a
 * large prompt finish flushing to a pipe.
 */
import { run } from "./run.js";

run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    // run() reports its own errors; this is only reached if writing to stderr itself failed.
    process.stderr.write(`chatwire: internal_error: ${String(err)}\n`);
    process.exitCode = 2;
  },
);
