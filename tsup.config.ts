import { defineConfig } from "tsup";

// The library builds to ESM + CJS with types; the CLI is an ESM entry with a shebang.
export default defineConfig([
  {
    // `chatwire/server` is its own entry: it needs node:http, and the core must stay browser-safe.
    entry: { index: "src/index.ts", server: "src/server/index.ts" },
    shims: true,
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
  },
  {
    entry: { "cli/main": "src/cli/main.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
