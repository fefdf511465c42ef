/**
 * "Every format gets a grammar, or its file says why none is possible": the reason lives in the
 * family's own data (`grammar.unavailable`), the emitter reads it, and `chatwire grammar` prints it.
 * The declarations are checked against what the emitter itself finds it can write (`emitterLimit`,
 * derived from the payload kinds and channel rules), so a stale one fails here: a format the emitter
 * cannot write must declare why, and one it can write must not declare anything.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/run.js";
import { ChatwireError } from "../../src/errors.js";
import { getFormat, listFormats } from "../../src/formats/index.js";
import type { FormatDescription } from "../../src/formats/index.js";
import { buildGbnf, emitterLimit, grammarFormats, grammarUnavailable } from "../../src/grammar/index.js";

const WEATHER = {
  type: "function",
  function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

const declaring = listFormats().filter((f) => f.grammar !== undefined);

describe("grammar.unavailable: the reason is the family's data", () => {
  it("exactly the formats the emitter cannot write declare why", () => {
    const mismatched = listFormats()
      .map((f) => ({ id: f.id, declared: f.grammar?.unavailable, limit: emitterLimit(f) }))
      .filter((x) => (x.declared === undefined) !== (x.limit === undefined))
      .map((x) => (x.declared === undefined ? `${x.id}: the emitter cannot write it (${x.limit}) and its file does not say why` : `${x.id}: its file says no grammar, but the emitter writes one`));
    expect(mismatched).toEqual([]);
    // Today none: every registered format has a grammar (the tests below read a declaring description too).
    expect(declaring.map((f) => f.id).sort()).toEqual([]);
  });

  it("each reason is a sentence of its own, not empty", () => {
    for (const f of declaring) {
      const reason = f.grammar!.unavailable;
      expect(reason.trim().length, f.id).toBeGreaterThan(30);
      expect(reason, f.id).not.toMatch(/\n/);
    }
  });

  it("grammarUnavailable and buildGbnf report the file's text, and grammarFormats leaves those formats out", () => {
    for (const f of declaring) {
      expect(grammarUnavailable(f.id)).toBe(f.grammar!.unavailable);
      let thrown: unknown;
      try {
        buildGbnf(f.id, { tools: [WEATHER] });
      } catch (e) {
        thrown = e;
      }
      expect(thrown, f.id).toBeInstanceOf(ChatwireError);
      expect((thrown as Error).message).toBe(`no grammar for format ${JSON.stringify(f.id)}: ${f.grammar!.unavailable}`);
    }
    const covered = new Set<string>(grammarFormats());
    for (const f of listFormats()) expect(covered.has(f.id), f.id).toBe(f.grammar === undefined);
  });

  it("the emitter reads the field: a writable description that declares a reason gets none, with that reason", () => {
    const hermes = getFormat("hermes");
    expect(grammarUnavailable(hermes)).toBeUndefined();
    const declared: FormatDescription = { ...hermes, grammar: { unavailable: "declared by the description under test" } };
    expect(grammarUnavailable(declared)).toBe("declared by the description under test");
    expect(() => buildGbnf(declared, { tools: [WEATHER] })).toThrow(/no grammar for format "hermes": declared by the description under test$/);
    // The emitter's own finding ignores the field, so the consistency check above can see the mismatch.
    expect(emitterLimit(declared)).toBeUndefined();
  });

  it("`chatwire grammar --format ID` prints the file's reason on one line, exit 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chatwire-unavailable-"));
    const requestFile = join(dir, "request.json");
    writeFileSync(requestFile, JSON.stringify({ messages: [{ role: "user", content: "Weather in Oslo?" }], tools: [WEATHER] }));
    for (const f of declaring) {
      let stdout = "";
      let stderr = "";
      const code = await run(["grammar", "--format", f.id, "--request", requestFile], {
        stdin: Readable.from([]),
        stdout: { write: (s: string) => (stdout += s) },
        stderr: { write: (s: string) => (stderr += s) },
      });
      expect(code, f.id).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toBe(`chatwire: unknown_format: no grammar for format ${JSON.stringify(f.id)}: ${f.grammar!.unavailable}\n`);
    }
  });
});
