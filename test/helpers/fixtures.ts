/**
 * Readers for the committed test data: the per-format completion fixtures (fixtures/completions), the
 * peer vectors (fixtures/peer-cases) and the list of vectors we deliberately disagree with. Everything is
 * read from the repository, never from /work/shared, so the suites run from a fresh clone.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExpectedIssue, ExpectedMessage } from "./expect-message.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURES = join(REPO_ROOT, "fixtures");

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, "utf8")) as T;
}

/** One completion of a fixture file. `tools` absent: the file's tools; `null`: no tools declared. */
export interface CompletionCase {
  name: string;
  completion: string;
  tools?: unknown[] | null;
  tool_choice?: unknown;
  promptSuffix?: string;
  expect: ExpectedMessage;
  errors?: ExpectedIssue[];
}

export interface CompletionFile {
  format: string;
  /** Where the syntax of these completions comes from (formats.md row, corpus template). */
  about: string;
  /** The fixture templates (fixtures/templates) this family is detected from; each is reconstructed. */
  templates?: string[];
  /** Templates in `templates` whose reconstruction is not checked, with the reason. */
  noReconstruct?: Record<string, string>;
  /** The family's call start marker, for the partial-marker tests. */
  startMarker: string;
  /** Text that puts the parser in plain content first (channel formats start inside a header). */
  proseLead?: string;
  tools: unknown[];
  cases: CompletionCase[];
}

export function completionFiles(): CompletionFile[] {
  const dir = join(FIXTURES, "completions");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => readJson<CompletionFile>(join(dir, f)));
}

/**
 * A family's own suite (fixtures/format-suites/<format>.json): cases of the completion fixtures' shape,
 * each run by the fluent tester with seed 1 unless it says otherwise. `tools` absent: the shared set
 * (fixtures/format-suites/tools.json).
 */
export interface FormatSuite {
  format: string;
  about?: string;
  tools?: unknown[];
  cases: (CompletionCase & { seed?: number })[];
}

/** The shared tool set of the family suites (get_weather, search, write_file). */
export function suiteTools(): unknown[] {
  return readJson<unknown[]>(join(FIXTURES, "format-suites", "tools.json"));
}

export function formatSuites(): FormatSuite[] {
  const dir = join(FIXTURES, "format-suites");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f !== "tools.json")
    .sort()
    .map((f) => readJson<FormatSuite>(join(dir, f)));
}

/** The tools a case runs with, after applying the file default. */
export function caseTools(file: CompletionFile, c: CompletionCase): unknown[] | null {
  return c.tools === undefined ? file.tools : c.tools;
}

export interface PeerCall {
  name: string;
  arguments: unknown;
}

export interface PeerCase {
  id: string;
  source: string;
  format: string;
  completion: string;
  tools: unknown[] | null;
  expected: { content: string | null; calls: PeerCall[] };
}

export function peerCases(): PeerCase[] {
  return readJson<PeerCase[]>(join(FIXTURES, "peer-cases", "cases.json"));
}

/**
 * The vectors listed in DISAGREEMENTS.md: each is a level-3 heading "### `<id>`" followed by the reason.
 * Returns id -> reason text, so the suite can require that every listed id exists and really disagrees.
 */
export function peerDisagreements(): Map<string, string> {
  const text = readFileSync(join(FIXTURES, "peer-cases", "DISAGREEMENTS.md"), "utf8");
  const out = new Map<string, string>();
  const sections = text.split(/^### /m).slice(1);
  for (const section of sections) {
    const m = /^`([^`]+)`\s*\n([\s\S]*)$/.exec(section);
    if (!m) throw new Error(`DISAGREEMENTS.md: a heading must be ### \`<case id>\`: ${section.slice(0, 60)}`);
    const reason = m[2]!.split(/^## /m)[0]!.trim();
    if (reason === "") throw new Error(`DISAGREEMENTS.md: ${m[1]} has no reason`);
    out.set(m[1]!, reason);
  }
  return out;
}
