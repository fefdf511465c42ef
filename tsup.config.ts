import { defineConfig } from "tsup";

// The library builds to ESM + CJS with types; the CLI is an ESM entry with a shebang.
// No `shims`: the core must reference no Node built-in (tsup's shims import node:url and node:path),
// and nothing in src/ needs __dirname or import.meta.url any more (built-in templates are embedded).
export default defineConfig([
  {
    // `core` is the browser-safe entry (package.json maps `chatwire` to it outside Node); `index` adds
    // file loading for Node; `chatwire/server` is its own entry because it needs node:http.
    entry: { index: "src/index.ts", core: "src/core.ts", server: "src/server/index.ts" },
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
