import { defineConfig } from "tsup";

// The library builds to ESM + CJS with types; the CLI is an ESM entry with a shebang.
// No source maps: they were 6.5 MB of a 10 MB package, and the output is not minified (the names and
// the code in a stack trace read as the source does, one file per entry), so they bought little.
// No `shims`: the core must reference no Node built-in (tsup's shims import node:url and node:path),
// and nothing in src/ needs __dirname or import.meta.url any more (built-in templates are embedded).
export default defineConfig([
  {
    // `core` is the browser-safe entry (package.json maps `chatwire` to it outside Node); `index` adds
    // file loading for Node; `chatwire/server` is its own entry because it needs node:http.
    entry: { index: "src/index.ts", core: "src/core.ts", server: "src/server/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: false,
    clean: true,
    target: "node20",
  },
  {
    entry: { "cli/main": "src/cli/main.ts" },
    format: ["esm"],
    sourcemap: false,
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
  {
    // The prompt inspector page's script: the core bundled for browsers, one classic script so the
    // static build (`chatwire inspect --out DIR`) also works opened from disk.
    entry: { "inspect/inspector": "src/inspect/app.ts" },
    format: ["iife"],
    platform: "browser",
    noExternal: [/.*/],
    minify: true,
    target: "es2022",
    outExtension: () => ({ js: ".js" }),
  },
]);
