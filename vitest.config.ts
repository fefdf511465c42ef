import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    // Writes the generated format registry (scripts/gen-families.mjs) before any test imports it.
    globalSetup: ["test/global-setup.ts"],
  },
});
