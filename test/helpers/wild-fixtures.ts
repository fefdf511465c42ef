/**
 * Reader for fixtures/wild/: real completions quoted from public bug reports, one JSON file per entry
 * under a folder named after the format id, and KNOWN-FAILURES.json (entry key -> deviation and reason).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES } from "./fixtures.js";

const WILD = join(FIXTURES, "wild");

export interface WildEntry {
  /** `<format>/<slug>`, from the file's place: how KNOWN-FAILURES.json names it. */
  key: string;
  source: string;
  where: string;
  format: string;
  model: string;
  deviation: string;
  request: { tools: unknown[]; tool_choice?: unknown; tools_reconstructed?: boolean };
  promptSuffix?: string;
  completion: string;
  expect?: {
    content: string | null;
    reasoning_content?: string;
    tool_calls: Array<{ name: string; arguments: unknown }>;
  };
  malformed?: true;
  notes?: string;
}

export interface KnownFailure {
  deviation: string;
  reason: string;
}

export function wildEntries(): WildEntry[] {
  const out: WildEntry[] = [];
  for (const dir of readdirSync(WILD).sort()) {
    if (!statSync(join(WILD, dir)).isDirectory()) continue;
    for (const file of readdirSync(join(WILD, dir)).sort()) {
      if (!file.endsWith(".json")) continue;
      const entry = JSON.parse(readFileSync(join(WILD, dir, file), "utf8")) as Omit<WildEntry, "key">;
      const key = `${dir}/${file.slice(0, -".json".length)}`;
      if (entry.format !== dir) throw new Error(`${key}: format ${entry.format} is not its folder's`);
      if ((entry.expect === undefined) === (entry.malformed !== true)) throw new Error(`${key}: needs exactly one of expect, malformed`);
      out.push({ ...entry, key });
    }
  }
  return out;
}

export function knownWildFailures(): Map<string, KnownFailure> {
  const list = JSON.parse(readFileSync(join(WILD, "KNOWN-FAILURES.json"), "utf8")) as Record<string, KnownFailure>;
  return new Map(Object.entries(list));
}
