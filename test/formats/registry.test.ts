/**
 * Registration by construction: the registry (src/formats/families.generated.ts) is generated from the
 * family files, so a family is registered by existing. Checked independently of the generator's own
 * text scan: every module in src/formats is imported and every format description it exports must be
 * the registered one under its id.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { familiesSource, familyExports, GENERATED } from "../../scripts/gen-families.mjs";
import { getFormat, listFormats } from "../../src/formats/index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const FORMATS_DIR = join(ROOT, "src/formats");

function isDescription(value: unknown): value is { id: string; regions: unknown[] } {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string" && Array.isArray((value as { regions?: unknown }).regions);
}

describe("the format registry is generated from the family files", () => {
  it("every description any src/formats module exports is registered, and nothing else is", async () => {
    const exported = new Map<string, unknown>();
    for (const file of readdirSync(FORMATS_DIR).filter((f) => f.endsWith(".ts") && f !== "index.ts" && f !== GENERATED)) {
      const module = (await import(join(FORMATS_DIR, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        if (!isDescription(value)) continue;
        expect(exported.has(value.id), `${file}: ${name} reuses the id ${value.id}`).toBe(false);
        exported.set(value.id, value);
      }
    }
    const registered = listFormats().map((f) => f.id).sort();
    expect([...exported.keys()].sort()).toEqual(registered);
    for (const [id, value] of exported) expect(getFormat(id), id).toBe(value);
    expect(registered.length).toBe(familyExports().length);
  });

  it("the generated module on disk is the generator's current output (globalSetup wrote it)", () => {
    expect(readFileSync(join(FORMATS_DIR, GENERATED), "utf8")).toBe(familiesSource());
  });

  it("is git-ignored, so adding a family changes no shared file", () => {
    const ignored = readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n").map((l) => l.trim());
    expect(ignored).toContain(`src/formats/${GENERATED}`);
  });

  describe("on a scratch tree", () => {
    const scratch = (files: Record<string, string>): string => {
      const root = mkdtempSync(join(tmpdir(), "chatwire-families-"));
      mkdirSync(join(root, "src/formats"), { recursive: true });
      for (const [name, text] of Object.entries(files)) writeFileSync(join(root, "src/formats", name), text);
      return root;
    };
    const family = (name: string, id: string): string =>
      `import { defineFormat } from "../parse/language.js";\n\nexport const ${name} = defineFormat({\n  id: "${id}",\n  description: "x",\n  regions: [],\n});\n`;

    it("a new family file is a new registry line; helpers and the registry's own files are not", () => {
      const root = scratch({
        "zeta.ts": family("zeta", "zeta"),
        "alpha-one.ts": family("alphaOne", "alpha-one"),
        "shared-markers.ts": 'export const NS = "<x>";\n',
        "index.ts": "export {};\n",
        "types.ts": "export {};\n",
      });
      const lines = familiesSource(root).split("\n").filter((l) => l.startsWith("export"));
      expect(lines).toEqual(['export { alphaOne } from "./alpha-one.js";', 'export { zeta } from "./zeta.js";']);
    });

    it("a defineFormat call not written as `export const NAME = defineFormat(` is an error naming the file", () => {
      const root = scratch({ "odd.ts": 'import { defineFormat } from "../parse/language.js";\nconst odd = defineFormat({ id: "odd", description: "x", regions: [] });\nexport default odd;\n' });
      expect(() => familiesSource(root)).toThrow(/src\/formats\/odd\.ts: 1 defineFormat call\(s\) but 0 written as/);
    });
  });
});
