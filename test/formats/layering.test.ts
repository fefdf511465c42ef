/**
 * The layering of the format language (docs/DESIGN.md): families import the engine's vocabulary, the
 * engine never imports the families (only the public entry src/parse/index.ts resolves an id through
 * the registry); family files are data. What "data" means here, and is checked: a family file imports
 * only the language and the data helpers beside it; it declares no function, class or method (it may
 * spell markers with a small arrow helper, `open("call")`, as kimi-k3.ts does); and every registered
 * description, walked to its leaves, holds only strings, numbers, booleans, arrays and plain objects,
 * so nothing in it is code the engine could call.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { listFormats } from "../../src/formats/index.js";
import { REPO_ROOT } from "../helpers/fixtures.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}
const imports = (p: string): string[] => [...readFileSync(p, "utf8").matchAll(/from "([^"]+)"/g)].map((m) => m[1]!);

/** The family files: those that export a `defineFormat(...)` description. */
const familyFiles = (): string[] => files(join(REPO_ROOT, "src/formats")).filter((p) => /^export const \w+ = defineFormat\(/m.test(readFileSync(p, "utf8")));

/** The function, class and method declarations of a source file, as `kind at line`. */
function declaredCode(path: string): string[] {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isClassLike(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node)) {
      found.push(`${ts.SyntaxKind[node.kind]} at line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Paths in a value that hold something other than plain data. */
function nonData(value: unknown, path: string): string[] {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => nonData(v, `${path}[${i}]`));
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.entries(value).flatMap(([k, v]) => nonData(v, `${path}.${k}`));
  }
  return [`${path}: ${typeof value}`];
}

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
  it("family files declare no function, class or method", () => {
    const families = familyFiles();
    expect(families.length).toBe(listFormats().length);
    for (const p of families) expect(declaredCode(p), relative(REPO_ROOT, p)).toEqual([]);
    // The check sees declarations: the data helper beside the families has some.
    expect(declaredCode(join(REPO_ROOT, "src/formats/deepseek-markers.ts")).length).toBeGreaterThan(0);
  });
  it("every registered description is plain data", () => {
    for (const f of listFormats()) expect(nonData(f, f.id), f.id).toEqual([]);
    expect(nonData({ regions: [{ payload: { kind: "x", read: () => 1 } }] }, "x")).toEqual(["x.regions[0].payload.read: function"]);
  });
});
