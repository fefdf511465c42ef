/**
 * The streaming fast path (PayloadDecoder.pushPlain, taken by the engine for a push inside a long
 * argument value) must do exactly what `push` does. Two checks:
 * - decoder level: the same region text fed to two decoders, one through push only and one trying
 *   pushPlain first (as the engine does), gives the same events folded: the same argument fragments
 *   concatenated, the same `done`/`fail` events;
 * - engine level: long values full of what the fast path must not swallow (quotes, backslash escapes
 *   cut in half, `<` that is code and `<` that closes, newlines before a close tag, CRLF, surrogate
 *   pairs) streamed in small deltas fold to the one-shot result.
 */
import { describe, expect, it } from "vitest";
import { getFormat } from "../../src/formats/index.js";
import { compileFormat } from "../../src/parse/compile-format.js";
import type { FormatId } from "../../src/formats/index.js";
import type { DecoderContext, DecoderEvent, PayloadDecoder } from "../../src/parse/decoder.js";
import { JsonStringWriter } from "../../src/parse/literal/json-text.js";
import { TextRope } from "../../src/parse/rope.js";
import { randomPieces, seededRandom } from "../helpers/rng.js";
import { parseOneShot } from "../helpers/run-parse.js";
import { expectPiecesEqualOneShot } from "../helpers/split-checks.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "write_file",
      parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" }, n: { type: "integer" } }, required: ["path", "content"] },
    },
  },
];
const SCHEMAS: Record<string, unknown> = { write_file: TOOLS[0]!.function.parameters };

/** File text that exercises every way a value push can stop being plain. */
function code(lines: number): string {
  const kinds = [
    'if (x < 10) { print("héllo — 深圳", x); } // tab\there',
    "path = 'C:\\\\temp\\\\new' + \"\\u00e9\" ",
    "emoji 😀😀 and <b>bold</b> and a < b > c",
    "  </parameter> inside code, not at a line end",
    "</parameter>",
    "x\r",
    "",
    "<parameter=fake",
    "\\",
  ];
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(kinds[(i * 7 + (i >> 2)) % kinds.length]!);
  return out.join("\n");
}

function hermes(content: string): string {
  return `<tool_call>\n${JSON.stringify({ name: "write_file", arguments: { path: "a.txt", content, n: 3 } })}\n</tool_call>`;
}

function tagged(content: string): string {
  return `<tool_call>\n<function=write_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=content>\n${content}\n</parameter>\n<parameter=n>\n3\n</parameter>\n</function>\n</tool_call>`;
}

const CASES: Array<{ format: FormatId; text: string }> = [
  { format: "hermes", text: hermes(code(60)) },
  { format: "hermes", text: `Sure.\n${hermes(code(25))}\n${hermes(code(10))}` },
  { format: "qwen3-coder", text: tagged(code(60)) },
  { format: "qwen3-coder", text: tagged(code(30)).replace("\n</parameter>\n<parameter=n>", "\n<parameter=n>") },
  { format: "qwen3-coder", text: tagged(code(30).replace(/\n/g, "\r\n")) },
  { format: "qwen3-coder", text: hermes(code(30)) },
  { format: "seed-oss", text: tagged(code(30)).replace("<tool_call>", "<seed:tool_call>").replace("</tool_call>", "</seed:tool_call>") },
  { format: "minimax-m2", text: `<minimax:tool_call>\n<invoke name="write_file">\n<parameter name="path">a.txt</parameter>\n<parameter name="content">${code(30)}</parameter>\n</invoke>\n</minimax:tool_call>` },
  { format: "glm-4.5", text: `<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>content</arg_key>\n<arg_value>${code(30)}</arg_value>\n</tool_call>` },
  { format: "llama3-json", text: `{"name": "write_file", "parameters": ${JSON.stringify({ path: "a.txt", content: code(30) })}}` },
  { format: "mistral", text: `[TOOL_CALLS][${JSON.stringify({ name: "write_file", arguments: { path: "a.txt", content: code(30) } })}]` },
  // An end marker right after text that makes the value wait (`</parameter>  ` may be its close): the
  // fast path that also rules out end markers must see the `</tool_call>` (or its start) after it.
  { format: "qwen3-coder", text: tagged(`${code(10)}\n</parameter>  </tool_call> and more\n${code(5)}`) },
  { format: "qwen3-coder", text: tagged(`${code(10)}</parameter>\n</tool_call>\n</parameter></tool_call><</${code(5)}`) },
  // Cut off inside the value: the fast path must leave the call truncated, as push would.
  { format: "hermes", text: hermes(code(20)).slice(0, 400) },
  { format: "qwen3-coder", text: tagged(code(20)).slice(0, 400) },
];

/** `count` deltas of 1 to `max` characters (never splitting a surrogate pair), seeded. */
function smallPieces(text: string, max: number, seed: number): string[] {
  const random = seededRandom(seed);
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    let n = 1 + Math.floor(random() * max);
    if (i + n < text.length) {
      const c = text.charCodeAt(i + n - 1);
      if (c >= 0xd800 && c <= 0xdbff) n++;
    }
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

describe("streaming fast path: engine level", () => {
  CASES.forEach(({ format, text }, k) => {
    it(`${format} #${k}: small deltas fold to the one-shot result`, () => {
      const spec = { format, request: { tools: TOOLS } };
      const oneShot = parseOneShot(spec, text);
      for (const max of [1, 2, 3, 4, 5, 8, 13]) {
        expectPiecesEqualOneShot(spec, smallPieces(text, max, 100 * k + max), oneShot, `${format} #${k} deltas <= ${max}`);
      }
      const random = seededRandom(k);
      for (let r = 0; r < 4; r++) {
        expectPiecesEqualOneShot(spec, randomPieces(text, 5 + r * 40, random), oneShot, `${format} #${k} random run ${r}`);
      }
    });
  });

  it("the cases do reach a call with a valid long value (the fast path is exercised)", () => {
    const spec = { format: "qwen3-coder", request: { tools: TOOLS } };
    const result = parseOneShot(spec, CASES[2]!.text);
    expect(result.errors).toEqual([]);
    const args = JSON.parse(result.message.tool_calls![0]!.function.arguments) as { content: string };
    expect(args.content).toBe(code(60));
  });
});

/** The engine's region text for a decoder: what it was pushed, sliceable by offset. */
function contextWithText(): { ctx: DecoderContext; seen: TextRope } {
  const seen = new TextRope();
  const ctx: DecoderContext = { toolSchema: (name) => SCHEMAS[name] as never, regionText: (from, to) => seen.slice(from, to) };
  return { ctx, seen };
}

/** Feeds pieces; with `plain`, tries pushPlain first and records its fragment as an args event. */
function run(format: FormatId, pieces: readonly string[], plain: boolean): { events: DecoderEvent[]; plainTaken: number } {
  const { ctx, seen } = contextWithText();
  const decoder: PayloadDecoder = compileFormat(getFormat(format)).regions[0]!.decoder(ctx);
  const events: DecoderEvent[] = [];
  let plainTaken = 0;
  for (const p of pieces) {
    seen.append(p);
    const fragment = plain ? decoder.pushPlain?.(p) : undefined;
    if (fragment !== undefined) {
      plainTaken++;
      if (fragment !== "") events.push({ kind: "args", text: fragment });
      continue;
    }
    events.push(...decoder.push(p));
  }
  events.push(...decoder.end(true));
  return { events, plainTaken };
}

/** Events with adjacent args merged (fragment boundaries are free to differ). */
function merged(events: readonly DecoderEvent[]): DecoderEvent[] {
  const out: DecoderEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e.kind === "args" && last?.kind === "args") out[out.length - 1] = { kind: "args", text: last.text + e.text };
    else out.push({ ...e });
  }
  return out;
}

describe("streaming fast path: decoder level", () => {
  const payloads: Array<{ format: FormatId; text: string }> = [
    { format: "hermes", text: `\n${JSON.stringify({ name: "write_file", arguments: { path: "a", content: code(40) } })}\n` },
    { format: "qwen3-coder", text: `\n<function=write_file>\n<parameter=path>\na\n</parameter>\n<parameter=content>\n${code(40)}\n</parameter>\n</function>\n` },
    { format: "minimax-m2", text: `\n<invoke name="write_file">\n<parameter name="content">${code(40)}</parameter>\n</invoke>\n` },
  ];
  payloads.forEach(({ format, text }, k) => {
    it(`${format}: pushPlain then push gives the events of push alone`, () => {
      for (const max of [1, 3, 4, 7]) {
        const pieces = smallPieces(text, max, 7 * k + max);
        const slow = run(format, pieces, false);
        const fast = run(format, pieces, true);
        expect(fast.plainTaken, `${format} deltas <= ${max}: the fast path was taken`).toBeGreaterThan(pieces.length / 3);
        expect(merged(fast.events), `${format} deltas <= ${max}`).toEqual(merged(slow.events));
      }
    });
  });
});

describe("long string argument parsed in pieces (long-member.ts) equals JSON.parse of the whole", () => {
  const big = code(1600); // about 70 K characters, escapes and surrogate pairs throughout
  const call = (args: string) => `<tool_call>\n{"name": "write_file", "arguments": ${args}}\n</tool_call>`;
  // Validation sees the parsed value: `const` makes any difference in the long string an error.
  const tools = [{ type: "function", function: { name: "write_file", parameters: { type: "object", properties: { content: { type: "string", const: big } } } } }];
  const cases: Array<{ name: string; text: string }> = [
    { name: "plain", text: call(JSON.stringify({ path: "a.txt", content: big, n: 3 })) },
    { name: "escaped non-ASCII", text: call(JSON.stringify({ path: "a", content: big }).replace(/深/g, "\\u6df1").replace(/😀/g, "\\ud83d\\ude00")) },
    { name: "key repeated: the last value wins", text: call(`{"path": "a", "content": ${JSON.stringify(big)}, "content": "short"}`) },
    { name: "key repeated, empty value last", text: call(`{"path": "a", "content": ${JSON.stringify(big)}, "content": ""}`) },
    { name: "key repeated, long value last", text: call(`{"content": "x", "path": "a", "content": ${JSON.stringify(big)}}`) },
    { name: "__proto__ key", text: call(`{"path": "a", "content": "c", "__proto__": ${JSON.stringify(big)}}`) },
    { name: "nested long string", text: call(JSON.stringify({ path: "a", content: "c", meta: { body: big } })) },
    { name: "two long strings", text: call(JSON.stringify({ path: big.slice(0, 40000), content: big })) },
    { name: "raw control character in the long string (invalid JSON)", text: call(`{"path": "a", "content": "${JSON.stringify(big).slice(1, 30000)}\u0001${JSON.stringify(big).slice(30000, -1)}"}`) },
    { name: "bad escape in the long string", text: call(`{"path": "a", "content": "${JSON.stringify(big).slice(1, 50000)}\\q"}`) },
    { name: "invalid text after the long string", text: call(`{"path": "a", "content": ${JSON.stringify(big)}, nope}`) },
  ];
  cases.forEach(({ name, text }, k) => {
    it(name, () => {
      const spec = { format: "hermes", request: { tools } };
      const oneShot = parseOneShot(spec, text);
      for (const max of [3, 9]) expectPiecesEqualOneShot(spec, smallPieces(text, max, 31 * k + max), oneShot, `${name}, deltas <= ${max}`);
      expectPiecesEqualOneShot(spec, randomPieces(text, 300, seededRandom(k)), oneShot, `${name}, random cuts`);
    });
  });

  it("the plain case is a valid call whose content is the whole text", () => {
    const result = parseOneShot({ format: "hermes", request: { tools } }, cases[0]!.text);
    expect(result.errors).toEqual([]);
    expect(parseOneShot({ format: "hermes", request: { tools } }, cases[1]!.text).errors).toEqual([]);
    expect((JSON.parse(result.message.tool_calls![0]!.function.arguments) as { content: string }).content).toBe(big);
  });
});

describe("tagged formats: a long streamed value parsed in pieces equals the arguments text parsed", () => {
  const big = code(1600);
  const param = (k: string, v: string) => `<parameter=${k}>\n${v}\n</parameter>\n`;
  const call = (params: string) => `<tool_call>\n<function=write_file>\n${params}</function>\n</tool_call>`;
  const schema = (content: Record<string, unknown>) => [
    { type: "function", function: { name: "write_file", parameters: { type: "object", properties: { path: { type: "string" }, content } } } },
  ];
  const cases: Array<{ name: string; text: string; tools: unknown[] }> = [
    { name: "string", text: call(param("path", "a") + param("content", big)), tools: schema({ type: "string", const: big }) },
    { name: "CRLF", text: call(param("path", "a") + param("content", big.replace(/\n/g, "\r\n"))), tools: schema({ type: "string", const: big.replace(/\n/g, "\r\n") }) },
    { name: "union type decided late", text: call(param("content", big) + param("path", "a")), tools: schema({ type: ["string", "null"], const: big }) },
    { name: "repeated key, short value last", text: call(param("content", big) + param("content", "short")), tools: schema({ type: "string", const: big }) },
    { name: "repeated key, empty value last", text: call(param("content", big) + param("content", "")), tools: schema({ type: "string", const: big }) },
    { name: "no schema for the key", text: call(param("path", "a") + param("body", big)), tools: schema({ type: "string" }) },
  ];
  cases.forEach(({ name, text, tools }, k) => {
    it(name, () => {
      const spec = { format: "qwen3-coder", request: { tools } };
      const oneShot = parseOneShot(spec, text);
      for (const max of [3, 9]) expectPiecesEqualOneShot(spec, smallPieces(text, max, 17 * k + max), oneShot, `${name}, deltas <= ${max}`);
      expectPiecesEqualOneShot(spec, randomPieces(text, 300, seededRandom(100 + k)), oneShot, `${name}, random cuts`);
      if (k < 3) expect(oneShot.errors, name).toEqual([]);
    });
  });

  it("a decoder's done event still carries the whole arguments text", () => {
    const { ctx, seen } = contextWithText();
    const payload = `\n<function=write_file>\n${param("path", "a")}${param("content", big)}</function>\n`;
    const decoder = compileFormat(getFormat("qwen3-coder")).regions[0]!.decoder(ctx);
    const events: DecoderEvent[] = [];
    for (const p of smallPieces(payload, 4, 5)) {
      seen.append(p);
      events.push(...(decoder.pushPlain?.(p) !== undefined ? [] : decoder.push(p)));
    }
    events.push(...decoder.end(true));
    const done = events.find((e) => e.kind === "done");
    expect(done?.kind === "done" && JSON.parse(done.arguments)).toEqual({ path: "a", content: big });
    expect(done?.kind === "done" && done.value).toEqual({ path: "a", content: big });
  });
});

describe("JsonStringWriter: pieces escape to JSON.stringify of the whole", () => {
  // Every kind of character the escaper treats apart: quote, backslash, each named and numbered
  // control, DEL (not escaped), non-ASCII, a surrogate pair, lone high and low surrogates.
  const alphabet = ['"', "\\", "\b", "\f", "\n", "\r", "\t", "\u0000", "\u001f", "\u007f", "a", " ", "é", "深", "😀", "\ud800", "\udc00", "/"];
  it("for random texts cut at random places, short pieces and long ones", () => {
    const random = seededRandom(4242);
    for (let round = 0; round < 400; round++) {
      let text = "";
      const len = Math.floor(random() * 80);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(random() * alphabet.length)]!;
      const writer = new JsonStringWriter();
      let out = "";
      let i = 0;
      while (i < text.length) {
        const n = 1 + Math.floor(random() * (random() < 0.8 ? 6 : 60));
        out += writer.write(text.slice(i, i + n));
        i += n;
      }
      out += writer.end();
      expect(out, `round ${round}: ${JSON.stringify(text)}`).toBe(JSON.stringify(text).slice(1, -1));
    }
  });
});
