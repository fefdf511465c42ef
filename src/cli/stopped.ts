/** The long-running commands (`serve`, `inspect`) run until the process is told to stop. */

/** Resolves on SIGINT/SIGTERM, or when `stop` aborts (tests stop a command in-process that way). */
export function stopped(stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (stop !== undefined) {
      if (stop.aborted) resolve();
      else stop.addEventListener("abort", () => resolve(), { once: true });
      return;
    }
    const done = (): void => {
      process.off("SIGINT", done);
      process.off("SIGTERM", done);
      resolve();
    };
    process.on("SIGINT", done);
    process.on("SIGTERM", done);
  });
}
