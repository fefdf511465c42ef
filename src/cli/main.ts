/**
 * The `chatwire` executable (built to dist/cli/main.js). All logic is in run.ts, which tests call
 * in-process; this file only connects it to the real process. `exitCode` rather than `exit()` lets a
 * large prompt finish flushing to a pipe.
 */
import { limitHeapGrowth } from "./heap-growth.js";
import { run } from "./run.js";

// `chatwire render ... | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(process.exitCode ?? 0);
  process.stderr.write(`chatwire: io_error: stdout: ${err.message}\n`);
  process.exit(2);
});

// A process-wide V8 setting, so here and not in serveCommand (see heap-growth.ts). A cluster worker
// runs this file with the primary's arguments, so it is set there too.
if (process.argv[2] === "serve") limitHeapGrowth();

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
