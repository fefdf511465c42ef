/**
 * The layering of the format language (docs/DESIGN.md): families import the engine's vocabulary, the
 * engine never imports the families (only the public entry src/parse/index.ts resolves an id through
 * the registry); family files are data (no decoder imports, no functions of their own).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtures.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}
const imports = (p: string): string[] => [...readFileSync(p, "utf8").matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);

describe("layering", () => {
  it("nothing in src/parse imports src/formats, except the public entry", () => {
    const offenders = files(join(REPO_ROOT, "src/parse"))
      .filter((p) => relative(REPO_ROOT, p) !== join("src", "parse", "index.ts"))
      .filter((p) => imports(p).some((i) => i.includes("/formats/")));
    expect(offenders.map((p) => relative(REPO_ROOT, p))).toEqual([]);
  });
  it("family files import only the language (and data helpers in src/formats)", () => {
    const dir = join(REPO_ROOT, "src/formats");
    for (const p of files(dir)) {
      for (const i of imports(p)) {
        const ok = i === "../parse/language.js" || i.startsWith("./") || i === "../errors.js";
        expect(ok, `${relative(REPO_ROOT, p)} imports ${i}`).toBe(true);
      }
    }
  });
});
