/**
 * Built-in templates are embedded in the code (so they load in browsers and bundles without file
 * access); the embedded copy must be exactly templates/ as it is now.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TARGET, embeddedSource } from "../scripts/embed-builtins.mjs";
import { listBuiltins } from "../src/template/builtins.js";
import { loadTemplate } from "../src/core.js";

describe("embedded built-in templates", () => {
  it("src/template/builtin-templates.ts is current (run node scripts/embed-builtins.mjs)", () => {
    expect(readFileSync(TARGET, "utf8")).toBe(embeddedSource());
  });

  it("the core loader (no file access) loads each by name with its special tokens", async () => {
    const index = JSON.parse(readFileSync(new URL("../templates/index.json", import.meta.url), "utf8")) as {
      templates: Record<string, { file: string; special_tokens?: Record<string, string> }>;
    };
    expect((await listBuiltins()).map((b) => b.name)).toEqual(Object.keys(index.templates));
    for (const [name, entry] of Object.entries(index.templates)) {
      const t = await loadTemplate(name);
      const text = readFileSync(new URL(`../templates/${entry.file}`, import.meta.url), "utf8");
      expect(t.render({ messages: [{ role: "user", content: "hi" }] })).toContain("hi");
      expect(t.source).toBe(text);
    }
  });

  it("the core loader refuses a path with a typed error that says where paths load", async () => {
    await expect(loadTemplate("fixtures/templates/Qwen3-Coder.jinja")).rejects.toMatchObject({ code: "io_error", message: expect.stringMatching(/load only in Node/) });
  });
});
