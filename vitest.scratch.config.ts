import { defineConfig } from "vitest/config";
export default defineConfig({
  resolve: { alias: [{ find: /^.*\/formats\/index\.js$/, replacement: "/tmp/scratch/formats-stub.ts" },{ find: /^.*\/parse\/index\.js$/, replacement: "/tmp/scratch/parse-stub.ts" }] },
  test: { include: ["test/template*.test.ts", "test/render-conformance.test.ts"], testTimeout: 60_000 },
});
