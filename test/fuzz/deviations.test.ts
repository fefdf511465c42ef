/**
 * The fuzz generator makes the deviations the families tolerate (deviations.ts): for every tolerate
 * entry of every family, some generated case is repaired with that kind, so the fuzz properties
 * (harness.ts) are checked on repaired text, not only on text the repair never sees.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers/fixtures.js";
import { listFormats } from "../../src/formats/index.js";
import type { FormatId } from "../../src/formats/index.js";
import { parseCompletion } from "../../src/parse/index.js";
import { generateCases, rng } from "./harness.js";
import type { FixtureFile } from "./harness.js";

const fixtures = new Map(
  readdirSync(join(FIXTURES, "completions"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(FIXTURES, "completions", f), "utf8")) as FixtureFile)
    .map((f) => [f.format, f]),
);

describe("fuzz deviations", () => {
  for (const f of listFormats().filter((x) => (x.tolerate ?? []).length > 0)) {
    it(`${f.id}: generated cases are repaired with every kind the family tolerates`, () => {
      const seen = new Set<string>();
      for (const c of generateCases(f, fixtures.get(f.id), rng(7), 600)) {
        if (c.origin !== "deviation") continue;
        const r = parseCompletion(c.format as FormatId, c.input, c.tools === null ? undefined : { tools: c.tools }, c.promptSuffix === undefined ? {} : { promptSuffix: c.promptSuffix });
        for (const e of r.errors) if (e.type === "repaired" && e.repair !== undefined) seen.add(e.repair);
      }
      // The JSON kinds' cases are made by harness.ts's own generators (see deviations.ts).
      const kinds = [...new Set(f.tolerate!.filter((t) => t.kind !== "key-alias" && (t.kind !== "bare-call" || t.payload !== undefined)).map((t) => t.kind))];
      expect([...seen].sort()).toEqual(expect.arrayContaining(kinds.sort()));
    });
  }
});
