/**
 * Whether this environment lets code be generated at run time (`new Function`). ajv needs it; a page
 * with a Content-Security-Policy without 'unsafe-eval' forbids it (the call throws EvalError). Probed
 * once; tests may force an engine.
 */
export type SchemaEngine = "codegen" | "interpret";

let detected: SchemaEngine | undefined;
let forced: SchemaEngine | undefined;

function probe(): SchemaEngine {
  try {
    return new Function("return 1")() === 1 ? "codegen" : "interpret";
  } catch {
    return "interpret";
  }
}

export function schemaEngine(): SchemaEngine {
  if (forced !== undefined) return forced;
  detected ??= probe();
  return detected;
}

/** For tests: run with the given engine (undefined: back to the detected one). Clears nothing else. */
export function forceSchemaEngine(engine: SchemaEngine | undefined): void {
  forced = engine;
}
