/**
 * Streaming equals one-shot, for every split (issue 4). Every completion in fixtures/completions (through
 * the fluent tester, which also checks the stated message) and every peer vector is fed one code point at
 * a time, cut at every position into two pushes, and cut at seeded random positions into many; the
 * folded deltas must equal the one-shot result exactly, ids included (a deterministic id generator per
 * run), and what a push has shown so far must be a prefix of the final text (nothing taken back, so no
 * partial marker was ever shown). Then the hold-back rules themselves: a marker prefix waits, and is
 * released as soon as it cannot be a marker; prose without markers is shown as it arrives.
 */
import { describe, expect, it } from "vitest";
import { idPattern } from "./helpers/expect-message.js";
import { caseTools, completionFiles, peerCases } from "./helpers/fixtures.js";
import type { CompletionFile } from "./helpers/fixtures.js";
import { codePointPieces } from "./helpers/rng.js";
import { parseOneShot, parseStreamed } from "./helpers/run-parse.js";
import type { RunSpec } from "./helpers/run-parse.js";
import { emitted, expectPiecesEqualOneShot, expectRandomSplitsEqualOneShot, expectTwoPushSplitsEqualOneShot } from "./helpers/split-checks.js";
import { tester } from "./helpers/tester.js";
import { getFormat, listFormats } from "../src/formats/index.js";
import { parseCompletion } from "../src/parse/index.js";
import type { FormatId } from "../src/formats/index.js";

const files = completionFiles();

describe("fixture completions: the stated message, one-shot and streamed", () => {
  for (const file of files) {
    describe(file.format, () => {
      file.cases.forEach((c, i) => {
        it(c.name, () => {
          let t = tester(file.format).tools(caseTools(file, c)).seed(1000 + i);
          if (c.tool_choice !== undefined) t = t.toolChoice(c.tool_choice);
          if (c.promptSuffix !== undefined) t = t.promptSuffix(c.promptSuffix);
          t.test(c.completion).errors(c.errors ?? []).expect(c.expect);
        });
      });
    });
  }

  it("default ids (no idGenerator) have the format's shape, native ids are kept", () => {
    for (const file of files) {
      for (const c of file.cases) {
        const request: Record<string, unknown> = { messages: [] };
        const tools = caseTools(file, c);
        if (tools) request.tools = tools;
        const options = c.promptSuffix === undefined ? {} : { promptSuffix: c.promptSuffix };
        const calls = parseCompletion(file.format as FormatId, c.completion, request, options).message.tool_calls ?? [];
        const ids = calls.map((call) => call.id);
        expect(new Set(ids).size, `${file.format}: ${c.name}: ids are distinct`).toBe(ids.length);
        (c.expect.tool_calls ?? []).forEach((want, i) => {
          if (want.id !== undefined) expect(ids[i], `${file.format}: ${c.name}`).toBe(want.id);
          else expect(ids[i], `${file.format}: ${c.name}`).toMatch(idPattern(file.format));
        });
      }
    }
  });

  it("covers every registered format with at least 5 cases", () => {
    const ids = listFormats().map((f) => f.id);
    const counts = new Map(files.map((f) => [f.format, f.cases.length]));
    expect(ids.filter((id) => (counts.get(id) ?? 0) < 5)).toEqual([]);
  });
});

// The fixture completions get every split through the tester above; the peer vectors get it here.
describe("peer vectors: every split equals the one-shot parse", () => {
  for (const c of peerCases()) {
    it(`${c.format}: ${c.id}`, () => {
      const spec: RunSpec = { format: c.format, request: { tools: c.tools } };
      const oneShot = parseOneShot(spec, c.completion);
      expectPiecesEqualOneShot(spec, codePointPieces(c.completion), oneShot, "code point by code point");
      expectTwoPushSplitsEqualOneShot(spec, c.completion, oneShot);
      expectRandomSplitsEqualOneShot(spec, c.completion, oneShot, c.completion.length, 8);
    });
  }
});

/** A character that cannot continue `marker` at its last position. */
function breaker(marker: string): string {
  return marker.endsWith("#") ? "~" : "#";
}

/** Every marker string a format description names (what the lexer may hold back a prefix of). */
function markersOf(format: string): string[] {
  const f = getFormat(format as FormatId);
  return [
    ...f.regions.flatMap((r) => [...r.start, ...(r.end ?? [])]),
    ...(f.reasoning ?? []).flatMap((r) => [...r.start, ...r.end]),
    ...(f.sections ?? []).flatMap((s) => [...s.start, ...s.end]),
    ...(f.channels ? [...f.channels.headerStart, ...f.channels.headerEnd, ...f.channels.bodyEnd] : []),
    ...(f.ignore ?? []),
  ];
}

function atStartOnly(format: string, marker: string): boolean {
  return getFormat(format as FormatId).regions.some((r) => r.atStartOnly === true && r.start.some((s) => marker.startsWith(s)));
}

function proseSpec(file: CompletionFile): RunSpec {
  return { format: file.format, request: { tools: file.tools } };
}

describe("partial markers", () => {
  it("issue 4's example: `<tool_c` then `all>` never shows `<tool_c` as content", () => {
    const pieces = ["Checking.\n<tool_c", 'all>\n{"name": "get_time", "arguments": {}}\n</tool_call>'];
    const run = parseStreamed({ format: "hermes", request: { tools: null } }, pieces);
    expect(run.perPush[0]!.map((d) => d.content ?? "").join("")).toBe("Checking.\n");
    for (const d of run.deltas) expect(d.content ?? "").not.toContain("<tool_c");
    expect(run.result.message.content).toBe("Checking.\n");
    expect(run.result.message.tool_calls!.map((c) => c.function.name)).toEqual(["get_time"]);
  });

  for (const file of files) {
    const lead = file.proseLead ?? "";
    // A one-character marker (pythonic `[`) has no proper prefix to hold back.
    it.runIf(file.startMarker.length > 1)(`${file.format}: a marker prefix is held back, then released as prose when it cannot be the marker`, () => {
      const partial = file.startMarker.slice(0, -1);
      // A marker that only counts at the very start of the output (llama3's `{`) is tried there.
      const prose = atStartOnly(file.format, file.startMarker) ? "" : "See ";
      const before = `${lead}${prose}${partial}`;
      const after = `${breaker(file.startMarker)} in the text.`;
      const parser = parseStreamed(proseSpec(file), [before, after]);
      const [firstPush, secondPush] = parser.perPush;
      // Hold-back: the first push shows no part of the partial marker.
      expect(emitted(firstPush!).content).not.toContain(partial.trim());
      // Release: once the next character rules the marker out, the text is content, before end().
      const shown = emitted([...firstPush!, ...secondPush!]).content;
      expect(shown).toBe(`${prose}${partial}${breaker(file.startMarker)} in the text.`);
      expect(parser.result.message.content).toBe(shown);
      expect(parser.result.errors).toEqual([]);
    });

    it(`${file.format}: prose without markers is shown as it arrives`, () => {
      const prose = "Sure thing, the answer is 42 and that is final.";
      const spec = proseSpec(file);
      const markers = markersOf(file.format);
      // The lead (a channel header) is not content; count only the prose pieces as pushed text.
      const leadPieces = lead === "" ? [] : [lead];
      const pieces = [...leadPieces, ...codePointPieces(prose)];
      const run = parseStreamed(spec, pieces);
      let pushed = "";
      for (let i = leadPieces.length; i < pieces.length; i++) {
        pushed += pieces[i]!;
        const shown = emitted(run.perPush.slice(0, i + 1).flat()).content;
        expect(pushed.startsWith(shown), `after ${JSON.stringify(pushed)}`).toBe(true);
        // Only what may still matter waits: trailing whitespace (it could separate a call from the end
        // of the output) and then a proper prefix of one of the format's markers.
        const held = pushed.slice(shown.length);
        const tail = held.trimStart();
        expect(
          tail === "" || markers.some((m) => m.length > tail.length && m.startsWith(tail)),
          `held back ${JSON.stringify(held)} after ${JSON.stringify(pushed)}`,
        ).toBe(true);
      }
      expect(run.result.message.content).toBe(prose);
    });
  }
});
