/**
 * Long argument values streamed through the fast paths (region.ts: `pushOpaque` / `pushPlain`, the
 * decoders' versions, the short-string JSON escape; stream-fast-path.test.ts compares them with push at
 * the decoder level) must have exactly the effect of the general path, in every format that has them. Each case is checked against an expectation built independently (the argument text the
 * test wrote, JSON.stringify for escapes, JSON's last-key-wins rule) and streamed in token-sized and
 * one-character pushes, which must fold to the one-shot result.
 */
import { describe, expect, it } from "vitest";
import { JsonStringWriter } from "../../src/parse/literal/json-text.js";
import { cutPositions, cutAt, seededRandom } from "../helpers/rng.js";
import { expectPiecesEqualOneShot } from "../helpers/split-checks.js";
import { parseOneShot } from "../helpers/run-parse.js";
import type { RunSpec } from "../helpers/run-parse.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "write_file",
      parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
    },
  },
];

/** Code that keeps every fast path busy: quotes, escapes, `<` and `</`, newlines, CRLF, non-BMP text. */
const CODE = [
  'if (a < b && s !== "x\\"y") {',
  '  out.push(`<div class="c">${v}</div>`);',
  "  const re = /<\\/?[a-z]+>/g; // '</tag>'",
  '  html += "<p>" + esc(t) + "</p>\\n";\r',
  '  log("</parameter> is text here", "\t", "深圳 😀");',
  "}",
].join("\n").repeat(12);

const SHAPES: Record<string, (args: Record<string, string>) => string> = {
  hermes: (a) => `<tool_call>\n${JSON.stringify({ name: "write_file", arguments: a })}\n</tool_call>`,
  "qwen3-coder": (a) =>
    `<tool_call>\n<function=write_file>\n${Object.entries(a).map(([k, v]) => `<parameter=${k}>\n${v}\n</parameter>\n`).join("")}</function>\n</tool_call>`,
  pythonic: (a) => `[write_file(${Object.entries(a).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(", ")})]`,
  "llama3-json": (a) => JSON.stringify({ name: "write_file", parameters: a }),
  mistral: (a) => `[TOOL_CALLS]write_file[ARGS]${JSON.stringify(a)}`,
  harmony: (a) => `<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>${JSON.stringify(a)}<|call|>`,
};

/** Pieces of 2 to 6 UTF-16 units (never between the halves of a surrogate pair), seeded. */
function tokenPieces(text: string, seed: number): string[] {
  const random = seededRandom(seed);
  const cuts: number[] = [];
  for (let i = 2 + Math.floor(random() * 5); i < text.length; i += 2 + Math.floor(random() * 5)) {
    const c = text.charCodeAt(i - 1);
    cuts.push(c >= 0xd800 && c <= 0xdbff ? i + 1 : i);
  }
  return cutAt(text, [...new Set(cuts.filter((c) => c < text.length))]);
}

function spec(format: string): RunSpec {
  return { format, request: { tools: TOOLS } };
}

function argumentsOf(text: string, format: string): unknown {
  const one = parseOneShot(spec(format), text);
  expect(one.errors, format).toEqual([]);
  expect(one.message.tool_calls?.length, format).toBe(1);
  return JSON.parse(one.message.tool_calls![0]!.function.arguments);
}

describe("the short-string JSON escape", () => {
  it("writes what JSON.stringify writes, whole or in pieces", () => {
    const alphabet = ['"', "\\", "\n", "\r", "\t", "\b", "\f", "\u0000", "\u001f", "\u007f", "a", " ", "<", "é", "深", "\ud83d", "\ude00", "\u2028"];
    const random = seededRandom(8);
    for (let n = 0; n < 3000; n++) {
      let s = "";
      const len = 1 + Math.floor(random() * 12);
      for (let k = 0; k < len; k++) s += alphabet[Math.floor(random() * alphabet.length)]!;
      const body = JSON.stringify(s).slice(1, -1);
      const one = new JsonStringWriter();
      expect(one.write(s) + one.end(), JSON.stringify(s)).toBe(body);
      for (const cut of cutPositions(s)) {
        const w = new JsonStringWriter();
        expect(w.write(s.slice(0, cut)) + w.write(s.slice(cut)) + w.end(), `${JSON.stringify(s)} cut at ${cut}`).toBe(body);
      }
    }
  });
});

describe("a long code argument, streamed in token-sized and one-character pushes", () => {
  for (const [format, make] of Object.entries(SHAPES)) {
    it(format, () => {
      // Python and JSON string literals cannot hold a lone CR the way a raw tagged value does; all keep it.
      const text = make({ path: "src/a.ts", content: CODE });
      expect(argumentsOf(text, format)).toEqual({ path: "src/a.ts", content: CODE });
      const one = parseOneShot(spec(format), text);
      for (const seed of [1, 2, 3]) expectPiecesEqualOneShot(spec(format), tokenPieces(text, seed), one, `${format} seed ${seed}`);
      expectPiecesEqualOneShot(spec(format), Array.from(text), one, `${format} one code point a push`);
    });
  }
});

describe("qwen3-coder streamed values, whose text is taken from the region when the call ends", () => {
  const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: {} } } }];
  const s: RunSpec = { format: "qwen3-coder", request: { tools } };
  const call = (params: string) => `<tool_call>\n<function=f>\n${params}</function>\n</tool_call>`;
  const cases: Array<[string, string, Record<string, unknown>]> = [
    ["a repeated key: the last value wins, as in JSON", "<parameter=a>\nfirst\n</parameter>\n<parameter=a>\nsecond\n</parameter>\n", { a: "second" }],
    ["a key named __proto__ is an own property", "<parameter=__proto__>\nx\n</parameter>\n<parameter=b>\ny\n</parameter>\n", JSON.parse('{"__proto__": "x", "b": "y"}')],
    ["CRLF around the value is stripped once", "<parameter=a>\r\nline 1\r\nline 2\r\n</parameter>\n", { a: "line 1\r\nline 2" }],
    ["an empty value", "<parameter=a>\n</parameter>\n", { a: "" }],
    ["a value that is only a CR", "<parameter=a>\r</parameter>\n", { a: "\r" }],
    ["a surrogate pair and quotes", '<parameter=a>\n"😀" and \\ and \u0001\n</parameter>\n', { a: '"😀" and \\ and \u0001' }],
  ];
  for (const [name, params, want] of cases) {
    it(name, () => {
      const text = call(params);
      const one = parseOneShot(s, text);
      expect(one.errors).toEqual([]);
      const args = one.message.tool_calls![0]!.function.arguments;
      expect(JSON.parse(args)).toEqual(want);
      expect(Object.keys(JSON.parse(args) as object)).toEqual(Object.keys(want));
      for (const cut of cutPositions(text)) expectPiecesEqualOneShot(s, cutAt(text, [cut]), one, `cut at ${cut}`);
      expectPiecesEqualOneShot(s, Array.from(text), one, "one code point a push");
    });
  }
});

describe("hermes: a region end marker inside an open JSON string", () => {
  it("belongs to the string, however the pushes cut it", () => {
    const text = `<tool_call>\n{"name": "write_file", "arguments": {"path": "a", "content": "x </tool_call> y <tool_call> z"}}\n</tool_call>`;
    expect(argumentsOf(text, "hermes")).toEqual({ path: "a", content: "x </tool_call> y <tool_call> z" });
    const one = parseOneShot(spec("hermes"), text);
    for (const cut of cutPositions(text)) expectPiecesEqualOneShot(spec("hermes"), cutAt(text, [cut]), one, `cut at ${cut}`);
    expectPiecesEqualOneShot(spec("hermes"), Array.from(text), one, "one code point a push");
  });

  for (const broken of ["x\n", "x\\\n", "x\\\\\n"]) {
    it(`ends the region once a raw newline broke the string (${JSON.stringify(broken)}), streamed as one-shot`, () => {
      const text = `<tool_call>\n{"name": "write_file", "arguments": {"path": "a", "content": "${broken}</tool_call> after`;
      const one = parseOneShot(spec("hermes"), text);
      expect(one.message.tool_calls ?? []).toEqual([]);
      expect(one.message.content).toContain(" after");
      for (const cut of cutPositions(text)) expectPiecesEqualOneShot(spec("hermes"), cutAt(text, [cut]), one, `cut at ${cut}`);
      for (const seed of [1, 2]) expectPiecesEqualOneShot(spec("hermes"), tokenPieces(text, seed), one, `seed ${seed}`);
    });
  }
});

describe("pythonic: escapes in a streamed string", () => {
  it("decode as Python does, wherever a push ends", () => {
    const literal = String.raw`'a\nb\'c\"d\\e\x41\t'`;
    const text = `[write_file(path="p", content=${literal})]`;
    expect(argumentsOf(text, "pythonic")).toEqual({ path: "p", content: "a\nb'c\"d\\eA\t" });
    const one = parseOneShot(spec("pythonic"), text);
    for (const cut of cutPositions(text)) expectPiecesEqualOneShot(spec("pythonic"), cutAt(text, [cut]), one, `cut at ${cut}`);
    expectPiecesEqualOneShot(spec("pythonic"), Array.from(text), one, "one code point a push");
  });
});
