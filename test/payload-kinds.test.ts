/**
 * Every layer that handles payload kinds keeps them in a table typed over `Payload["kind"]`
 * (src/parse/payload-kinds.ts), so a kind added to the language and missing from a layer is a compile
 * error there. This test shows it: it type-checks the layers with the fixture's kind
 * (fixtures/payload-kind/extra-kind.ts) spliced into the `Payload` union, in memory, and expects a
 * diagnostic naming the kind in each layer, and no other (one program, checked for those files only).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./helpers/fixtures.js";

/** The layers: the decoder compiler, the syntax texts, the validator, the GBNF writers, the structural tag. */
const LAYERS = [
  "src/parse/compile-format.ts",
  "src/parse/syntax-texts.ts",
  "src/parse/validate-format.ts",
  "src/grammar/payloads.ts",
  "src/grammar/calls.ts",
  "src/grammar/structural-tag.ts",
].map((p) => join(REPO_ROOT, p));

const LANGUAGE = join(REPO_ROOT, "src/parse/language.ts");
const FIXTURE = join(REPO_ROOT, "fixtures/payload-kind/extra-kind.ts");
const KIND = "fixture-extra-kind";
const UNION = "export type Payload =\n";

function options(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(REPO_ROOT, "tsconfig.json"), ts.sys.readFile);
  return { ...ts.parseJsonConfigFileContent(config.config, ts.sys, REPO_ROOT).options, noEmit: true };
}

/** Each layer's diagnostics, with `language` in place of the language's source. */
function diagnostics(language: string): Map<string, string[]> {
  const opts = options();
  const host = ts.createCompilerHost(opts);
  const read = host.readFile.bind(host);
  host.readFile = (file) => (file === LANGUAGE ? language : read(file));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, lang, onError) => (file === LANGUAGE ? ts.createSourceFile(file, language, lang) : getSourceFile(file, lang, onError));
  const program = ts.createProgram({ rootNames: LAYERS, options: opts, host });
  const byLayer = new Map<string, string[]>();
  for (const layer of LAYERS) {
    const source = program.getSourceFile(layer);
    if (source === undefined) throw new Error(`${layer} is not in the program`);
    byLayer.set(
      layer,
      program.getSemanticDiagnostics(source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    );
  }
  return byLayer;
}

describe("payload kinds", () => {
  it("a kind missing from any layer fails to compile, in that layer", () => {
    const source = readFileSync(LANGUAGE, "utf8");
    expect(source).toContain(UNION);
    const extended = source.replace(UNION, `${UNION}  | import(${JSON.stringify(FIXTURE.replace(/\.ts$/, ".js"))}).ExtraPayload\n`);
    for (const [layer, messages] of diagnostics(extended)) {
      expect(
        messages.some((m) => m.includes(KIND)),
        `${layer} compiles without the kind ${KIND}: ${messages.join(" | ")}`,
      ).toBe(true);
      // Nothing else fails there: the errors are the missing kind's (`npm run typecheck` keeps the rest clean).
      expect(messages.filter((m) => !m.includes(KIND)), layer).toEqual([]);
    }
  }, 60_000);
});
