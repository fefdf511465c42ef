/**
 * Parse benchmark (issues 3 and 4), against the built package (dist/index.js; `npm run bench` builds).
 *
 * 1. Throughput: a 1 MB Hermes completion with 50 calls, parsed one-shot, next to JSON.parse of the same
 *    call objects (one JSON array of the 50 `{"name", "arguments"}` objects, about the same bytes); and
 *    the same calls written as 50 bare pythonic lists (`[write_file(path=..., content=...)]`), each a
 *    region without end marker, so the cost of closing such regions shows (it must stay linear).
 * 2. Streaming: one Hermes and one Qwen3-Coder call whose string argument is 25 KB and 200 KB (8x), fed in
 *    4-character deltas: a file (code-like lines), plain prose, and hard code (short lines, quotes,
 *    escapes, `<` and `</` on every line, a `</parameter>` in a string literal). Linear work means the 8x text costs about 8x time (the issue allows ~10x) and
 *    streaming costs at most 3x the one-shot parse of the same text.
 * 3. Per format: one call whose 50 KB argument is hard code (as in 2) or plain prose, written the way each
 *    of hermes, qwen3-coder, pythonic, llama3-json, mistral and harmony writes a call, streamed in
 *    token-sized deltas (2 to 6 characters, seeded), against the one-shot parse of the same text. The
 *    limit is on the code case: streaming it costs at most 3x the one-shot parse.
 * 4. Baseline: what serving engines do today, re-parsing the accumulated text on every delta. Running it
 *    in full would take minutes (it is quadratic), so it is sampled: the accumulated text is re-parsed at
 *    SAMPLES evenly spaced deltas and the mean cost is multiplied by the number of deltas.
 *
 * Run: `node bench/parse.mjs` (or through bench/run.mjs). Prints one table per part. `DIST=<path to an
 * index.js>` benchmarks another build instead (a copy of dist/ from before a change, for before/after).
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const DELTA = 4;
const SAMPLES = 24;

/**
 * Best wall time in ms of `fn` over `runs` runs, after warm-up runs (JIT, ajv compile). The minimum, not
 * the median: other processes and GC pauses only ever add time, so the fastest run is the closest to the
 * cost of the work itself, and the figures stay comparable on a busy machine.
 */
function time(fn, runs) {
  for (let i = 0; i < 3; i++) fn();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

function tool(name, properties, required) {
  return { type: "function", function: { name, parameters: { type: "object", properties, required } } };
}

const WRITE_FILE = tool("write_file", { path: { type: "string" }, content: { type: "string" } }, ["path", "content"]);
const REQUEST = { messages: [], tools: [WRITE_FILE] };

/** Text like a model writes into a file (code, quotes, escapes, some non-ASCII), `chars` long. */
function fileText(chars) {
  const line = 'if (x < 10) { print("héllo — 深圳", x); } // tab\there\n';
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

/** Prose: no quotes, no `<`, few newlines (the cheap case). */
function plainText(chars) {
  const line = "The quick brown fox jumps over the lazy dog and keeps running through the field. ";
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

/**
 * Code that is hard on a streaming parser: short lines (a newline every few deltas, each one a
 * possible start of a close tag), quotes and escapes on every line, `<` and `</` of HTML and
 * comparisons, a `</parameter>` inside a string literal.
 */
function codeText(chars) {
  const lines = [
    'if (a < b && s !== "x\\"y") {',
    '  out.push(`<div class="c">${v}</div>`);',
    "  const re = /<\\/?[a-z]+>/g; // '</tag>'",
    '  html += "<p>" + esc(t) + "</p>\\n";',
    '  log("</parameter> is text here");',
    "}",
  ];
  const text = lines.join("\n") + "\n";
  return text.repeat(Math.ceil(chars / text.length)).slice(0, chars);
}

function hermesCall(args) {
  return `<tool_call>\n${JSON.stringify({ name: "write_file", arguments: args })}\n</tool_call>`;
}

function qwenCall(args) {
  const params = Object.entries(args).map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join("");
  return `<tool_call>\n<function=write_file>\n${params}</function>\n</tool_call>`;
}

/** The same call in the shape each format writes (the bench's request has the one tool, write_file). */
const CALL_SHAPES = {
  hermes: hermesCall,
  "qwen3-coder": qwenCall,
  pythonic: (args) => `[write_file(${Object.entries(args).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")})]`,
  "llama3-json": (args) => JSON.stringify({ name: "write_file", parameters: args }),
  mistral: (args) => `[TOOL_CALLS]write_file[ARGS]${JSON.stringify(args)}`,
  harmony: (args) => `<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>${JSON.stringify(args)}<|call|>`,
};

/** Token-sized deltas: 2 to 6 characters each, from a fixed seed (the same cut for every run). */
function tokenDeltasOf(text) {
  let seed = 7;
  const out = [];
  for (let i = 0; i < text.length; ) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const n = 2 + Math.floor((seed / 2 ** 32) * 5);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function deltasOf(text) {
  const out = [];
  for (let i = 0; i < text.length; i += DELTA) out.push(text.slice(i, i + DELTA));
  return out;
}

function fmt(x, digits = 1) {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

function printTable(title, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => String(c).padEnd(widths[i])).join("  ");
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of rows) console.log(line(r));
}

function throughput(lib) {
  // 50 calls of ~20 KB each: 1 MB of UTF-8 in all (the file text averages ~1.2 bytes per character).
  const calls = Array.from({ length: 50 }, (_, i) => ({ path: `out/${i}.txt`, content: fileText(16_500) }));
  const completion = calls.map((args, i) => `Step ${i}.\n${hermesCall(args)}\n`).join("");
  const payload = `[${calls.map((args) => JSON.stringify({ name: "write_file", arguments: args })).join(",")}]`;
  const check = lib.parseCompletion("hermes", completion, REQUEST);
  if ((check.message.tool_calls ?? []).length !== 50 || check.errors.length !== 0) {
    throw new Error(`bench: expected 50 valid calls, got ${(check.message.tool_calls ?? []).length} and ${check.errors.length} errors`);
  }
  const mb = (s) => Buffer.byteLength(s, "utf8") / 1e6;
  const pythonic = calls.map((args, i) => `Step ${i}.\n[write_file(path=${JSON.stringify(args.path)}, content=${JSON.stringify(args.content)})]\n`).join("");
  const pyCheck = lib.parseCompletion("pythonic", pythonic, REQUEST);
  if ((pyCheck.message.tool_calls ?? []).length !== 50 || pyCheck.errors.length !== 0) throw new Error("bench: pythonic did not parse to 50 valid calls");
  const parseMs = time(() => lib.parseCompletion("hermes", completion, REQUEST), 15);
  const jsonMs = time(() => JSON.parse(payload), 15);
  const pyMs = time(() => lib.parseCompletion("pythonic", pythonic, REQUEST), 7);
  printTable("Parse throughput: 1 MB completion, 50 calls (one-shot)", ["what", "MB", "ms", "MB/s"], [
    ["chatwire parseCompletion (hermes)", fmt(mb(completion), 2), fmt(parseMs, 2), fmt(mb(completion) / (parseMs / 1000))],
    ["chatwire parseCompletion (pythonic lists)", fmt(mb(pythonic), 2), fmt(pyMs, 2), fmt(mb(pythonic) / (pyMs / 1000))],
    ["JSON.parse (same calls as one array)", fmt(mb(payload), 2), fmt(jsonMs, 2), fmt(mb(payload) / (jsonMs / 1000))],
  ]);
  return { parseMBs: mb(completion) / (parseMs / 1000), jsonMBs: mb(payload) / (jsonMs / 1000) };
}

function streamOnce(lib, format, deltas) {
  const parser = lib.createStreamParser(format, REQUEST);
  let n = 0;
  for (const d of deltas) n += parser.push(d).length;
  n += parser.end().length;
  return n;
}

/**
 * Estimated total cost of re-parsing the accumulated text after every delta: the median cost of a parse
 * at SAMPLES evenly spaced prefixes (after one warm-up pass), integrated over all the deltas.
 */
function reparseEstimate(lib, format, text) {
  const count = Math.ceil(text.length / DELTA);
  const prefixes = [];
  for (let s = 1; s <= SAMPLES; s++) prefixes.push(text.slice(0, Math.min(text.length, Math.round((s / SAMPLES) * count) * DELTA)));
  for (const p of prefixes) lib.parseCompletion(format, p, REQUEST);
  let perDelta = 0;
  for (const p of prefixes) perDelta += time(() => lib.parseCompletion(format, p, REQUEST), 3);
  return (perDelta / SAMPLES) * count;
}

function streaming(lib) {
  const rows = [];
  const verdicts = [];
  const cases = [
    ["hermes", "file", hermesCall, fileText],
    ["qwen3-coder", "file", qwenCall, fileText],
    ["hermes", "plain", hermesCall, plainText],
    ["qwen3-coder", "plain", qwenCall, plainText],
    ["hermes", "code", hermesCall, codeText],
    ["qwen3-coder", "code", qwenCall, codeText],
  ];
  for (const [format, kind, make, body] of cases) {
    const figures = {};
    for (const size of [25_000, 200_000]) {
      const text = make({ path: "big.txt", content: body(size) });
      const one = lib.parseCompletion(format, text, REQUEST);
      if ((one.message.tool_calls ?? []).length !== 1) throw new Error(`bench: ${format} ${size} did not parse to one call`);
      const deltas = deltasOf(text);
      const runs = size > 100_000 ? 7 : 15;
      const oneShotMs = time(() => lib.parseCompletion(format, text, REQUEST), runs);
      const streamMs = time(() => streamOnce(lib, format, deltas), runs);
      const reparseMs = reparseEstimate(lib, format, text);
      figures[size] = { oneShotMs, streamMs, reparseMs };
      rows.push([
        format,
        `${kind} ${size / 1000} KB`,
        deltas.length,
        fmt(oneShotMs, 2),
        fmt(streamMs, 2),
        fmt((streamMs * 1000) / deltas.length, 2),
        fmt(streamMs / oneShotMs, 2),
        fmt(reparseMs, 0),
        fmt(reparseMs / oneShotMs, 0),
      ]);
    }
    const small = figures[25_000];
    const big = figures[200_000];
    verdicts.push([
      `${format} (${kind})`,
      fmt(big.streamMs / small.streamMs, 1),
      fmt(big.streamMs / big.oneShotMs, 2),
      fmt(big.reparseMs / small.reparseMs, 1),
      fmt(big.reparseMs / big.oneShotMs, 0),
      big.streamMs / small.streamMs <= 10 && big.streamMs / big.oneShotMs <= 3 ? "ok" : "OVER",
    ]);
  }
  printTable(`Streaming one call with a large string argument, ${DELTA}-character deltas`, [
    "format", "argument", "deltas", "one-shot ms", "stream ms", "µs/delta", "stream/one-shot", "re-parse ms (est.)", "re-parse/one-shot",
  ], rows);
  printTable("Scaling 25 KB -> 200 KB (8x text); limits: stream <= ~10x, stream/one-shot <= 3x", [
    "format", "stream 8x cost", "stream/one-shot @200KB", "re-parse 8x cost", "re-parse/one-shot @200KB", "verdict",
  ], verdicts);
  return verdicts;
}

/** CPU time of this process so far, in ms (user + system): time spent descheduled is not counted. */
function cpuMs() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Part 3: the code-argument and plain-text cases side by side, per format. One-shot and streamed runs
 * alternate, so a load change on the machine shifts both, and the best of each is kept (see time()).
 * The clock is the process's CPU time, not wall time: on a machine shared with other work (CI, a
 * laptop) the scheduler takes the process off the CPU for whole milliseconds, longer than one of these
 * runs, and a wall-clock ratio then measures the neighbours.
 */
function formatsStreaming(lib) {
  const size = 50_000;
  const rows = [];
  const verdicts = [];
  for (const [format, make] of Object.entries(CALL_SHAPES)) {
    const ratio = {};
    const row = [format];
    for (const [kind, body] of [["plain", plainText], ["code", codeText]]) {
      const text = make({ path: "big.txt", content: body(size) });
      const one = lib.parseCompletion(format, text, REQUEST);
      if ((one.message.tool_calls ?? []).length !== 1 || one.errors.length !== 0) throw new Error(`bench: ${format} ${kind} did not parse to one valid call`);
      const deltas = tokenDeltasOf(text);
      let oneShotMs = Infinity;
      let streamMs = Infinity;
      for (let i = 0; i < 3; i++) {
        lib.parseCompletion(format, text, REQUEST);
        streamOnce(lib, format, deltas);
      }
      for (let i = 0; i < 25; i++) {
        let t0 = cpuMs();
        lib.parseCompletion(format, text, REQUEST);
        oneShotMs = Math.min(oneShotMs, cpuMs() - t0);
        t0 = cpuMs();
        streamOnce(lib, format, deltas);
        streamMs = Math.min(streamMs, cpuMs() - t0);
      }
      ratio[kind] = streamMs / oneShotMs;
      row.push(fmt(oneShotMs, 2), fmt(streamMs, 2), fmt((streamMs * 1000) / deltas.length, 2), fmt(streamMs / oneShotMs, 2));
    }
    rows.push(row);
    verdicts.push({ format, plain: ratio.plain, code: ratio.code });
    // The parse bench's own limit (3x), and issue 19's goal for every format (4x), side by side.
    row.push(ratio.code <= 3 ? "ok" : "OVER", ratio.code <= 4 ? "ok" : "MISSED");
  }
  printTable(`Streaming one call with a ${size / 1000} KB argument in token-sized deltas (2-6 characters), per format (CPU ms); limit: code stream/one-shot <= 3x; issue 19's goal: <= 4x`, [
    "format", "plain one-shot ms", "plain stream ms", "plain µs/delta", "plain stream/one-shot", "code one-shot ms", "code stream ms", "code µs/delta", "code stream/one-shot", "code verdict (3x)", "goal <= 4x",
  ], rows);
  return verdicts;
}

export async function runParseBench() {
  const lib = await import(process.env.DIST ?? new URL("../dist/index.js", import.meta.url).href);
  console.log("\n== chatwire parse benchmark ==");
  const tp = throughput(lib);
  const verdicts = streaming(lib);
  const perFormat = formatsStreaming(lib);
  return { throughput: tp, streaming: verdicts, formats: perFormat };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await runParseBench();
}
