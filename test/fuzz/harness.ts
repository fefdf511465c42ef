/**
 * The parse fuzzer: seeded inputs for every registered format (mutations of its fixture completions,
 * and marker soup built from its description), each checked for four properties:
 *
 * - no exception (model output never throws);
 * - no slow case: one-shot parse time stays under a linear bound in the input length;
 * - stream == one-shot: the folded deltas of the input cut at random positions equal the one-shot
 *   result exactly, error messages included;
 * - no lost text: every word of the input is in the result (content, reasoning, a returned call's name
 *   or arguments, an error's `text`), except the words docs/parsing.md allows to vanish (see
 *   `vanishing` below).
 *
 * `growth` checks linearity directly: the time for an input made of one fragment repeated, against the
 * same fragment repeated 4x as often.
 *
 * Everything here is deterministic given the seed; a failure carries what is needed to replay it.
 */
import { getFormat, listFormats } from "../../src/formats/index.js";
import type { FormatDescription, FormatId } from "../../src/formats/index.js";
import { createStreamParser, foldDeltas, parseCompletion } from "../../src/parse/index.js";
import type { ParseOptions, ReasoningCalls } from "../../src/parse/index.js";
import type { Delta, ParseResult } from "../../src/types.js";
import { deviate, deviationPieces } from "./deviations.js";
import { formatMarkers, formatSyntaxWords } from "./markers.js";
import { seededRandom } from "../helpers/rng.js";

export interface FixtureFile {
  format: string;
  tools: unknown[];
  cases: Array<{ completion: string; tools?: unknown[] | null; promptSuffix?: string }>;
}

export interface FuzzCase {
  format: string;
  input: string;
  tools: unknown[] | null;
  promptSuffix?: string;
  /** A quarter of the cases read calls inside reasoning as reasoning text (ParseOptions.reasoningCalls). */
  reasoningCalls?: ReasoningCalls;
  /** How the case was made (for the report). */
  origin: "mutation" | "soup" | "deviation";
}

export interface FuzzFailure {
  kind: "exception" | "split" | "lost" | "slow" | "growth";
  format: string;
  detail: string;
  input: string;
  tools?: unknown[] | null;
  promptSuffix?: string;
  reasoningCalls?: ReasoningCalls;
  pieces?: string[];
}

/** The suite's seeded PRNG (mulberry32), under the name the fuzz code uses. */
export const rng = seededRandom;

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** Payload pieces every family may meet: JSON, Python, tags, quotes, escapes, newlines. */
const GENERIC_PIECES = [
  '{"name": "get_weather", "arguments": {"city": "W"}}',
  '{"name": "f", "arguments": {}}',
  '{"name": "f", "argumentz": {"a": "W"}}',
  // Deviations the JSON tolerances read (docs/parsing.md "What we repair"): key aliases, string arguments.
  '{"name": "get_weather", "args": {"city": "W"}}',
  '{"tool_name": "get_weather", "tool_input": {"city": "W"}}',
  '{"name": "get_weather", "arguments": "{\\"city\\": \\"W\\"}"}',
  '[{"name": "f", "arguments": {"a": 1}}]',
  '{"a": "W"}',
  '"W</tool_call>W"',
  "<function=f>",
  "<function=>",
  "<function=",
  "<parameter=a>",
  "<parameter=",
  "</parameter>",
  "</function>",
  '<invoke name="f">',
  '<parameter name="a">',
  "f(a='W')",
  "[f(a=1), g()]",
  "get_weather",
  "functions.f:0",
  "```json\n",
  "```",
  "\n",
  " ",
  "\n\n",
  '"',
  "'",
  "\\",
  "{",
  "}",
  "[",
  "]",
  "(",
  ")",
  "<",
  ">",
  ":",
  ",",
  "=",
];

/** A word no other part of the input has: lost text shows as a missing word. */
function word(r: Rand, n: number): string {
  return `w${n}${pick(r, ["x", "é", "日", "q", "z"])}`;
}

function fillWords(s: string, r: Rand, counter: { n: number }): string {
  return s.replace(/W/g, () => word(r, counter.n++));
}

/** Marker soup: the format's markers (whole and cut), payload pieces and unique words, concatenated. */
function soup(f: FormatDescription, markers: readonly string[], fixturePieces: readonly string[], r: Rand): string {
  const counter = { n: 0 };
  const parts: string[] = [];
  const n = int(r, 1, 24);
  for (let k = 0; k < n; k++) {
    const roll = r();
    if (roll < 0.35 && markers.length > 0) parts.push(pick(r, markers));
    else if (roll < 0.42 && markers.length > 0) {
      const m = pick(r, markers);
      parts.push(m.slice(0, int(r, 1, Math.max(1, m.length - 1))));
    } else if (roll < 0.6 && fixturePieces.length > 0) parts.push(pick(r, fixturePieces));
    else if (roll < 0.8) parts.push(fillWords(pick(r, GENERIC_PIECES), r, counter));
    else parts.push(` ${word(r, counter.n++)} `);
  }
  void f;
  return parts.join("");
}

/** A bare JSON call (object or list) naming one of the fixture's tools, as the bare-call repair reads it. */
function bareCall(f: FormatDescription, file: FixtureFile | undefined, r: Rand): string {
  const counter = { n: 0 };
  const tools = (file?.tools ?? []) as Array<{ function?: { name?: string; parameters?: { properties?: Record<string, unknown> } } }>;
  const t = tools.length > 0 ? pick(r, tools).function : undefined;
  const name = t?.name ?? "get_weather";
  const keys = Object.keys(t?.parameters?.properties ?? { city: {} });
  const args = `{${keys.slice(0, int(r, 0, keys.length)).map((k) => `"${k}": "${word(r, counter.n++)}"`).join(", ")}}`;
  const call = pick(r, [`{"name": "${name}", "arguments": ${args}}`, `{"name": "${name}", "args": ${args}}`, `[{"name": "${name}", "arguments": ${args}}]`, `{"arguments": ${args}, "name": "${name}"}`]);
  const reasoning = f.reasoning?.[0];
  const before = reasoning !== undefined && r() < 0.3 ? `${reasoning.start[0]}${word(r, counter.n++)}${reasoning.end[0]}\n\n` : pick(r, ["", "\n", " "]);
  const after = pick(r, ["", "", "\n", ` ${word(r, counter.n++)}`]);
  return before + call + after;
}

/** One to three edits of a fixture completion. */
function mutate(s: string, markers: readonly string[], r: Rand): string {
  let out = s;
  const counter = { n: 0 };
  const edits = int(r, 1, 3);
  for (let e = 0; e < edits; e++) {
    const at = int(r, 0, out.length);
    const len = int(r, 1, Math.max(1, Math.min(40, out.length - at)));
    switch (int(r, 0, 6)) {
      case 0: // delete a span
        out = out.slice(0, at) + out.slice(at + len);
        break;
      case 1: // duplicate a span
        out = out.slice(0, at + len) + out.slice(at, at + len) + out.slice(at + len);
        break;
      case 2: // insert a marker
        if (markers.length > 0) out = out.slice(0, at) + pick(r, markers) + out.slice(at);
        break;
      case 3: // insert a payload piece
        out = out.slice(0, at) + fillWords(pick(r, GENERIC_PIECES), r, counter) + out.slice(at);
        break;
      case 4: // truncate
        out = out.slice(0, at);
        break;
      case 5: // replace a character by a structural one
        out = out.slice(0, at) + pick(r, ['"', "<", ">", "{", "}", "\n", "\\", "'", "]", ")"]) + out.slice(at + 1);
        break;
      case 6: // insert a unique word
        out = out.slice(0, at) + word(r, counter.n++) + out.slice(at);
        break;
    }
  }
  return out;
}

/** Pieces of fixture completions cut at marker boundaries: realistic payloads for the soup. */
function fixturePieces(file: FixtureFile | undefined, markers: readonly string[]): string[] {
  if (file === undefined) return [];
  const out = new Set<string>();
  for (const c of file.cases) {
    let parts = [c.completion];
    for (const m of markers) parts = parts.flatMap((p) => p.split(m));
    for (const p of parts) if (p !== "" && p.length < 400) out.add(p);
  }
  return [...out];
}

export function* generateCases(f: FormatDescription, file: FixtureFile | undefined, r: Rand, count: number): Generator<FuzzCase> {
  // The soup also holds the markers the family's tolerances read (stray closers, fence lines).
  const markers = [...formatMarkers(f), ...deviationPieces(f)];
  const pieces = fixturePieces(file, formatMarkers(f));
  const fileCases = file?.cases ?? [];
  const tolerant = (f.tolerate ?? []).length > 0;
  for (let k = 0; k < count; k++) {
    if (tolerant && r() < 0.25) {
      // A deviation the family tolerates, made from a fixture completion or a payload piece, then
      // sometimes mutated: the repair must hold on broken text too.
      const c = fileCases.length > 0 && r() < 0.7 ? pick(r, fileCases) : undefined;
      const from = c?.completion ?? (pieces.length > 0 ? pick(r, pieces) : fillWords(pick(r, GENERIC_PIECES), r, { n: 0 }));
      let input = deviate(f, from, r) ?? from;
      if (r() < 0.3) input = mutate(input, markers, r);
      const tools = c === undefined ? (r() < 0.5 ? null : (file?.tools ?? null)) : c.tools === undefined ? file!.tools : c.tools;
      const out: FuzzCase = { format: f.id, input, tools, origin: "deviation" };
      if (c?.promptSuffix !== undefined) out.promptSuffix = c.promptSuffix;
      yield out;
    } else if (fileCases.length > 0 && r() < 0.5) {
      const c = pick(r, fileCases);
      const tools = c.tools === undefined ? file!.tools : c.tools;
      const out: FuzzCase = { format: f.id, input: mutate(c.completion, markers, r), tools, origin: "mutation" };
      if (c.promptSuffix !== undefined) out.promptSuffix = c.promptSuffix;
      yield withReasoningCalls(out, r);
    } else if (r() < 0.1) {
      // A whole answer that is only a call object (or a list), the markers missing (the bare-call repair),
      // sometimes with reasoning before it or text after it.
      const tools = r() < 0.8 ? (file?.tools ?? null) : null;
      yield withReasoningCalls({ format: f.id, input: bareCall(f, file, r), tools, origin: "soup" }, r);
    } else {
      const tools = r() < 0.5 ? null : (file?.tools ?? null);
      yield withReasoningCalls({ format: f.id, input: soup(f, markers, pieces, r), tools, origin: "soup" }, r);
    }
  }
}

function withReasoningCalls(c: FuzzCase, r: Rand): FuzzCase {
  if (r() < 0.25) c.reasoningCalls = "text";
  return c;
}

// ---- the checks --------------------------------------------------------------------------------

function counterIds(): () => string {
  let n = 0;
  return () => `call_${String(n++).padStart(24, "0")}`;
}

function request(tools: unknown[] | null): unknown {
  return tools === null ? undefined : { tools };
}

function optionsOf(c: FuzzCase): ParseOptions {
  const opts: ParseOptions = { idGenerator: counterIds() };
  if (c.promptSuffix !== undefined) opts.promptSuffix = c.promptSuffix;
  if (c.reasoningCalls !== undefined) opts.reasoningCalls = c.reasoningCalls;
  return opts;
}

function oneShot(c: FuzzCase): ParseResult {
  return parseCompletion(c.format as FormatId, c.input, request(c.tools), optionsOf(c));
}

function streamed(c: FuzzCase, pieces: readonly string[]): ParseResult {
  const p = createStreamParser(c.format as FormatId, request(c.tools), optionsOf(c));
  const deltas: Delta[] = [];
  for (const piece of pieces) deltas.push(...p.push(piece));
  deltas.push(...p.end());
  return foldDeltas(deltas);
}

/** Random cuts, never inside a surrogate pair (a stream never cuts there). */
function randomPieces(s: string, r: Rand): string[] {
  const mode = r();
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    let n = mode < 0.3 ? 1 : mode < 0.7 ? int(r, 1, 6) : int(r, 1, Math.max(1, s.length >> 1));
    if (i + n < s.length && s.charCodeAt(i + n - 1) >= 0xd800 && s.charCodeAt(i + n - 1) <= 0xdbff) n++;
    out.push(s.slice(i, i + n));
    i += n;
  }
  return out;
}

/**
 * Words allowed to vanish from the output, besides the format's markers (docs/parsing.md, "Text:
 * never lost"): the syntax a valid call is written in (the JSON keys of the call object, tag and
 * attribute names, the separators inside a call region). The words of a channel message header
 * (role, channel, recipient, content type) are not listed here: they come from the format's own
 * `headers` patterns (syntaxTexts), so a header word the format does not write is checked.
 */
const SYNTAX_WORDS = new Set([
  "name", "arguments", "parameters", "function", "type", "id", "parameter", "invoke", "arg_key", "arg_value",
  "call", "json", "string", "true", "false", "tool_call", "functions", "python", "tool_calls", "tool", "calls", "sep", "DSML",
  "tool_call_argument_begin", "tool_name", "tool_call_id", "ARGS", "CALL_ID", "CDATA",
  // Python literal spellings, written in JSON's in the arguments.
  "True", "False", "None",
]);

const WORD = /[\p{L}\p{N}_]+/gu;
/**
 * The model's own call ids: Mistral's `[CALL_ID]...[ARGS]` (or `[CALL_ID]...{`, where the arguments'
 * brace ends the header), JSON `"id"` / `"tool_call_id"` values.
 */
const ID_TEXT = /\[CALL_ID\][^[{]*(?=\[ARGS\]|\{)|"(?:id|tool_call_id)"\s*:\s*"[^"]*"/g;

/**
 * The words of a format's own syntax, read from its description (markers, patterns, keys, tag names:
 * every string in it but its id, its one-line description and its detection substrings), so that a new
 * family's syntax is known without a list here.
 */
export function syntaxWords(f: FormatDescription): Set<string> {
  const out = new Set(SYNTAX_WORDS);
  const walk = (v: unknown): void => {
    if (typeof v === "string") for (const w of v.match(WORD) ?? []) out.add(w);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) if (k !== "id" && k !== "description" && k !== "detect" && k !== "evidence") walk(x);
  };
  walk(f);
  return out;
}
/** Escapes decode to other characters (`\u00e9`, `\x41`, `\n`): their letters are not text to find. */
const ESCAPE = /\\(?:u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|N\{[^}]*\}|[0-7]{1,3}|.)/gsu;

function leaves(v: unknown, out: string[]): void {
  if (typeof v === "string") out.push(v);
  else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      leaves(x, out);
    }
  } else out.push(String(v));
}

/**
 * The input's markers become separators (a word cut by a dropped marker is still found, as a substring
 * of the word the two halves make), and escapes are removed on both sides (a decoded argument holds
 * other characters than the escape the model wrote).
 */
function withoutMarkers(text: string, markers: readonly string[]): string {
  let out = text;
  for (const m of markers) out = out.split(m).join(" ");
  return out.replace(ESCAPE, " ");
}

/** The input's words that are in no part of the result. Empty when nothing is lost. */
export function lostWords(c: FuzzCase, markers: readonly string[], syntax: ReadonlySet<string>, result: ParseResult): string[] {
  const sorted = [...markers].sort((a, b) => b.length - a.length);
  const hay: string[] = [result.message.content ?? "", result.message.reasoning_content ?? ""];
  for (const e of result.errors) hay.push(e.text, e.name ?? "");
  for (const call of result.message.tool_calls ?? []) {
    hay.push(call.function.name, call.function.arguments, call.id);
    try {
      leaves(JSON.parse(call.function.arguments), hay);
    } catch {
      // arguments are always JSON for a returned call; nothing more to read
    }
  }
  // The output as it is, and without escapes (the input's escapes are removed before its words are read).
  const raw = hay.join("\u0000");
  const have = `${raw}\u0000${raw.replace(ESCAPE, " ")}`;
  const numbers = new Set((have.match(WORD) ?? []).filter((w) => /^\d/.test(w)).map((w) => String(Number(w))));
  const lost = new Set<string>();
  // A call id the model wrote may be replaced (Mistral ids must be 9 alphanumerics) or not kept (a
  // format without ids): its text may vanish.
  const input = c.input.replace(ID_TEXT, " ");
  // The words of this format's own call syntax (read from its description) may vanish too.
  const described = formatSyntaxWords(getFormat(c.format));
  for (const w of withoutMarkers(input, sorted).match(WORD) ?? []) {
    if (syntax.has(w) || described.has(w) || have.includes(w)) continue;
    // Short numbers are call counters and the model's own ids where a format does not keep them
    // (Kimi `functions.f:0`, Command R7B `"tool_call_id": "0"`).
    if (/^\d{1,3}$/.test(w)) continue;
    // A number typed by the schema is written in JSON's spelling (`03106` as an integer is 3106).
    if (/^\d+$/.test(w) && numbers.has(String(Number(w)))) continue;
    lost.add(w);
  }
  return [...lost];
}

/** Per-case time bound: generous (a loaded CI machine), but linear. */
function slowBound(length: number): number {
  return 250 + length * 0.05;
}

/** Checks one case; the failures found (at most one per property). */
export function checkCase(c: FuzzCase, markers: readonly string[], syntax: ReadonlySet<string>, r: Rand): FuzzFailure[] {
  const failures: FuzzFailure[] = [];
  const base = {
    format: c.format,
    input: c.input,
    tools: c.tools,
    ...(c.promptSuffix === undefined ? {} : { promptSuffix: c.promptSuffix }),
    ...(c.reasoningCalls === undefined ? {} : { reasoningCalls: c.reasoningCalls }),
  };
  let one: ParseResult;
  try {
    const t0 = performance.now();
    one = oneShot(c);
    const ms = performance.now() - t0;
    if (ms > slowBound(c.input.length)) {
      // Measured again before it counts: a GC pause or a busy machine is not the parser's cost.
      const t1 = performance.now();
      oneShot(c);
      const again = performance.now() - t1;
      if (again > slowBound(c.input.length)) failures.push({ ...base, kind: "slow", detail: `${again.toFixed(0)} ms for ${c.input.length} characters` });
    }
  } catch (e) {
    failures.push({ ...base, kind: "exception", detail: String((e as Error).stack ?? e) });
    return failures;
  }
  for (let k = 0; k < 2; k++) {
    const pieces = randomPieces(c.input, r);
    let got: ParseResult;
    try {
      got = streamed(c, pieces);
    } catch (e) {
      failures.push({ ...base, kind: "exception", detail: `streamed: ${String((e as Error).stack ?? e)}`, pieces });
      return failures;
    }
    const a = JSON.stringify(one);
    const b = JSON.stringify(got);
    if (a !== b) {
      failures.push({ ...base, kind: "split", detail: `one-shot ${a}\nstreamed ${b}`, pieces });
      break;
    }
  }
  const lost = lostWords(c, markers, syntax, one);
  if (lost.length > 0) failures.push({ ...base, kind: "lost", detail: `lost ${JSON.stringify(lost)} from ${JSON.stringify(one)}` });
  return failures;
}

export interface FuzzOptions {
  seed: number;
  /** Cases per format. */
  perFormat: number;
  fixtures: readonly FixtureFile[];
  formats?: readonly string[];
  /** Keep at most this many failures per kind and format (the report stays readable). */
  maxFailures?: number;
  /** Called before each case (the child-process runner reports progress, so a hang names its case). */
  onCase?: (c: FuzzCase) => void;
}

export interface FuzzReport {
  cases: number;
  byFormat: Record<string, number>;
  failures: FuzzFailure[];
  /** Failures per kind and format (all of them, also those past maxFailures). */
  counts: Record<string, number>;
}

export function runFuzz(opts: FuzzOptions): FuzzReport {
  const report: FuzzReport = { cases: 0, byFormat: {}, failures: [], counts: {} };
  const byFormat = new Map(opts.fixtures.map((f) => [f.format, f]));
  const formats = listFormats().filter((f) => opts.formats === undefined || opts.formats.includes(f.id));
  formats.forEach((f, fi) => {
    const r = rng(opts.seed * 1000 + fi);
    const markers = formatMarkers(f);
    const syntax = syntaxWords(f);
    let n = 0;
    for (const c of generateCases(f, byFormat.get(f.id), r, opts.perFormat)) {
      opts.onCase?.(c);
      for (const failure of checkCase(c, markers, syntax, r)) {
        const key = `${failure.kind} ${failure.format}`;
        report.counts[key] = (report.counts[key] ?? 0) + 1;
        if ((report.counts[key] ?? 0) <= (opts.maxFailures ?? 3)) report.failures.push(failure);
      }
      n++;
    }
    report.byFormat[f.id] = n;
    report.cases += n;
  });
  return report;
}

// ---- linear growth -------------------------------------------------------------------------------

/**
 * Fragments to repeat for a format: its markers, fixture completions and a few payload openers; `wide`
 * adds cut markers and marker pairs.
 */
function growthFragments(f: FormatDescription, file: FixtureFile | undefined, wide: boolean): string[] {
  const markers = formatMarkers(f);
  const out = new Set<string>(markers);
  for (const c of file?.cases.slice(0, 2) ?? []) out.add(c.completion);
  for (const g of ["<function=", "<parameter", "{", "[", "<"]) out.add(g);
  if (wide) {
    for (const m of markers) out.add(m.slice(0, Math.ceil(m.length / 2)));
    for (const a of markers) for (const b of markers.slice(0, 3)) out.add(a + b);
    for (const c of file?.cases.slice(2, 6) ?? []) out.add(c.completion);
    for (const g of ['"', "\n", "f(", '{"name": "f", "arguments": {"a": "']) out.add(g);
  }
  return [...out];
}

function timeParse(format: string, text: string, stream: boolean): number {
  const t0 = performance.now();
  if (stream) {
    const p = createStreamParser(format as FormatId);
    for (let i = 0; i < text.length; i += 7) p.push(text.slice(i, i + 7));
    p.end();
  } else parseCompletion(format as FormatId, text);
  return performance.now() - t0;
}

function repeatTo(fragment: string, length: number): string {
  return fragment.repeat(Math.max(1, Math.ceil(length / fragment.length)));
}

export interface GrowthOptions {
  fixtures: readonly FixtureFile[];
  /** The short input's length; the long one is 4x. */
  length: number;
  formats?: readonly string[];
  /** A 4x input may cost at most this many times the short one (linear: ~4; quadratic: ~16). */
  maxRatio?: number;
  /** More fragments (cut markers, marker pairs): for `npm run fuzz`. */
  wide?: boolean;
  /** Called before each fragment is timed (progress for the runner's watchdog). */
  onFragment?: (format: string, fragment: string) => void;
}

/**
 * For each format and fragment, one-shot and streamed: time(4n) / time(n), the best of three runs
 * each. A ratio over the bound is measured again at twice the size before it is reported.
 */
export function checkGrowth(opts: GrowthOptions): { checked: number; failures: FuzzFailure[]; worst: Array<{ format: string; fragment: string; stream: boolean; ratio: number; ms: number }> } {
  const maxRatio = opts.maxRatio ?? 10;
  const byFormat = new Map(opts.fixtures.map((f) => [f.format, f]));
  const failures: FuzzFailure[] = [];
  const worst: Array<{ format: string; fragment: string; stream: boolean; ratio: number; ms: number }> = [];
  let checked = 0;
  // The best of `runs` timings: noise (GC, other processes on a shared machine) only ever adds time.
  const best = (format: string, text: string, stream: boolean, runs: number): number => {
    let t = Infinity;
    for (let k = 0; k < runs; k++) t = Math.min(t, timeParse(format, text, stream));
    return t;
  };
  for (const f of listFormats()) {
    if (opts.formats !== undefined && !opts.formats.includes(f.id)) continue;
    for (const fragment of growthFragments(f, byFormat.get(f.id), opts.wide === true)) {
      opts.onFragment?.(f.id, fragment);
      for (const stream of [false, true]) {
        checked++;
        let n = opts.length;
        let ratio = 0;
        let long = 0;
        // Small times are noise: a ratio only counts when the long input takes 50 ms or more.
        // A ratio over the bound is measured again at 3x and 9x the size (noise: GC, JIT, a busy
        // machine, other test files running at the same time); a quadratic cost only grows clearer.
        for (let attempt = 0; attempt < 3; attempt++) {
          const runs = attempt === 0 ? 2 : 5;
          const short = best(f.id, repeatTo(fragment, n), stream, runs);
          long = best(f.id, repeatTo(fragment, 4 * n), stream, runs);
          ratio = long / Math.max(short, 0.5);
          if (ratio <= maxRatio || long < 50) break;
          n *= 3;
        }
        worst.push({ format: f.id, fragment, stream, ratio, ms: long });
        if (ratio > maxRatio && long >= 50) {
          failures.push({ kind: "growth", format: f.id, input: fragment, detail: `${stream ? "streamed" : "one-shot"}: 4x the input (${4 * n} characters) took ${ratio.toFixed(1)}x the time (${long.toFixed(0)} ms)` });
        }
      }
    }
  }
  worst.sort((a, b) => b.ratio - a.ratio);
  return { checked, failures, worst: worst.slice(0, 10) };
}
