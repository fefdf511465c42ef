/**
 * The families' `tolerate` entries (issue 18): each one compiles, names the URL of a real completion,
 * and has its row in docs/parsing.md "What we repair" (and every row is an entry); a description with
 * an unknown kind or key, or without evidence, is rejected by name.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/fixtures.js";
import { listFormats } from "../../src/formats/index.js";
import { ChatwireError } from "../../src/errors.js";
import { compileFormat } from "../../src/parse/compile-format.js";
import { parseCompletion } from "../../src/parse/index.js";
import type { FormatDescription, Tolerance } from "../../src/parse/language.js";

/** `family|repair|evidence` of each row of the "What we repair" table. */
function docRows(): string[] {
  const doc = readFileSync(join(REPO_ROOT, "docs/parsing.md"), "utf8");
  const section = doc.slice(doc.indexOf("## What we repair"), doc.indexOf("\n## ", doc.indexOf("## What we repair") + 1));
  return section
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| family"))
    .map((l) => l.split(" | ").map((c) => c.replace(/^\| /, "").trim()))
    .map((cells) => `${cells[0]}|${cells[2]}|${cells[3]}`);
}

describe("tolerances", () => {
  const entries = listFormats().flatMap((f) => (f.tolerate ?? []).map((t) => `${f.id}|${t.kind}|${t.evidence}`));

  it("every family's tolerances compile", () => {
    for (const f of listFormats()) expect(() => compileFormat(f), f.id).not.toThrow();
  });

  it("docs/parsing.md has one row per tolerate entry, and no other", () => {
    expect(entries.length).toBeGreaterThan(0);
    expect(docRows().sort()).toEqual([...entries].sort());
  });

  it("a description with an unknown kind or key, or no evidence URL, is rejected by name", () => {
    const base = listFormats().find((f) => f.id === "qwen3-coder")!;
    const good = base.tolerate![0]!;
    const bad = (t: unknown): (() => unknown) => () => compileFormat({ ...base, id: "probe", tolerate: [t as Tolerance] } as FormatDescription);
    expect(bad({ ...good, kind: "stray-closr" })).toThrow(/unknown tolerance kind "stray-closr"/);
    expect(bad({ ...good, closers: ["</x>"] })).toThrow(/unknown key "closers"/);
    expect(bad({ ...good, evidence: "seen on reddit" })).toThrow(/evidence/);
    expect(bad({ ...good, after: "<nope>" })).toThrow(/no region's start marker/);
    expect(bad({ ...good, after: "<nope>" })).toThrow(ChatwireError);
  });

  it("a description passed by the caller may tolerate too (the data is the whole story)", () => {
    const base = listFormats().find((f) => f.id === "qwen3-coder")!;
    const { tolerate: _t, ...plain } = base;
    const text = "<function=f>\n</function>\n</tool_call>";
    expect(parseCompletion({ ...plain } as typeof base, text).message.content).toBe("\n</tool_call>");
    expect(parseCompletion(base, text).message.content).toBeNull();
  });
});
