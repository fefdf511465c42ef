/**
 * readSharedJson against readJson on bodies built to reach every path of the shared reader: a new
 * top-level array read natively (JSON.parse up to the body's last `]`, the float search, the walk that
 * freezes it), one that is not the body's last member, fingerprints met again with other contents (the
 * scan-first rule), grown versions (item ends found later), integral floats written every way,
 * integer-like keys, nesting at the limit, and bad JSON. Whatever path a body takes, its value must be
 * readJson's (float-ness and key order included) and its error readJson's (type, message, position).
 */
import { describe, expect, it } from "vitest";
import { PyFloat } from "../src/jinja/py-float.js";
import { readJson } from "../src/request/read-json.js";
import { readSharedJson, sharedJsonStats } from "../src/request/read-shared-json.js";
import { seededRandom } from "./helpers/rng.js";

/** A canonical text of a read value: floats marked, -0 told apart, keys in enumeration order. */
function dump(v: unknown): string {
  if (v === null) return "null";
  if (typeof v === "number") return Object.is(v, -0) ? "N(-0)" : `N(${v})`;
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "boolean") return String(v);
  if (v instanceof PyFloat) return Object.is(v.value, -0) ? "F(-0)" : `F(${v.value})`;
  if (Array.isArray(v)) return `[${v.map(dump).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .map((k) => `${JSON.stringify(k)}:${dump(o[k])}`)
    .join(",")}}`;
}

function outcome(read: (text: string) => unknown, text: string): string {
  try {
    return dump(read(text));
  } catch (err) {
    const e = err as Error & { position?: number; line?: number; column?: number };
    return `${e.constructor.name}: ${e.message} @${e.position}/${e.line}:${e.column}`;
  }
}

// Every way of writing a number, integral floats (which JSON.parse makes ints) among them.
const NUMBERS = ["1.0", "-0.0", "0.0", "1E5", "1e-7", "2.5", "0", "-3", "1.5e3", "12", "-12.000", "3e0", "0.1e1", "1e+2", "123456789", "-1.25E-3", "1e400", "100.50", "4.0E-0", "-7E2"];
// Numbers without an integral float: such arrays can be read natively.
const PLAIN_NUMBERS = ["2.5", "0", "-3", "12", "7", "123456789", "-1.25E-3", "1e-7", "100.50", "0.5", "-0.25", "1e400"];
// Strings that look like what the float search and the last-`]` cut look for.
const STRINGS = ["", "a", "]", "[", "a]b", "release 2.0", "price: 12.0", '{\\"x\\": 1.0}', ", 3.0", "x: 4.0", "\\\\", '\\"', "\\u00e9t\\u00e9", "\\ud83d\\ude00", "日本語", "\\n\\t", "1.0", "[1.0]", '\\\\\\", 5.0', "\\u0000x", "}", "\\/", 'a\\\\\\": 2.0'];
const KEYS = ["name", "type", "description", "default", "a b", "1", "0", "12", "01", "-1", "__proto__", "k\\u00e9", "v1.0", '\\"q', "4294967295", "4294967294"];

function bodies(seed: number, count: number): string[] {
  const rand = seededRandom(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
  const ws = (): string => pick(["", "", "", " ", "\n  ", "\t", "\r\n"]);
  let plain = false;
  const value = (depth: number): string => {
    const x = rand();
    if (depth > 4 || x < 0.35) {
      const y = rand();
      if (y < 0.45) return pick(plain ? PLAIN_NUMBERS : NUMBERS);
      if (y < 0.85) return `"${pick(STRINGS)}${rand() < 0.3 ? "p".repeat(Math.floor(rand() * 80)) : ""}"`;
      return pick(["true", "false", "null"]);
    }
    if (x < 0.6) return `[${ws()}${Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1)).join(`${ws()},${ws()}`)}${ws()}]`;
    const keys = Array.from({ length: Math.floor(rand() * 4) }, (_, i) => (rand() < 0.15 ? pick(KEYS) : `${pick(["name", "type", "properties", "enum"])}${i}`));
    return `{${ws()}${keys.map((k) => `"${k}"${ws()}:${ws()}${value(depth + 1)}`).join(`${ws()},${ws()}`)}${ws()}}`;
  };
  // Long first items shared by many arrays: one fingerprint (the first 256 characters) for many bodies.
  const pool = Array.from({ length: 10 }, (_, k) => `{"name": "t${k}", "description": "${"d".repeat(200 + k * 10)}", "v": ${value(2)}}`);
  const longArray = (): string => {
    const items = rand() < 0.7 ? [pick(pool)] : [];
    for (let n = 1 + Math.floor(rand() * 5); n > 0; n--) items.push(rand() < 0.3 ? pick(pool) : value(1));
    return `[${ws()}${items.join(`${ws()},${ws()}`)}${ws()}]`;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    plain = rand() < 0.6;
    const x = rand();
    if (x < 0.08 && out.length > 0) {
      out.push(pick(out)); // the same body again
      continue;
    }
    if (x < 0.16 && out.length > 0) {
      const old = pick(out); // a grown version: an item added to its last array
      const at = old.lastIndexOf("]");
      if (at > 0) {
        out.push(`${old.slice(0, at)}, ${value(1)}${old.slice(at)}`);
        continue;
      }
    }
    const members: string[] = [];
    for (let n = 1 + Math.floor(rand() * 4), m = 0; m < n; m++) {
      const y = rand();
      const depth = 993 + Math.floor(rand() * 8); // around the nesting limit (1000 with the root and the member)
      const v = y < 0.6 ? longArray() : y < 0.7 ? `[${"[".repeat(depth)}${"]".repeat(depth)}, ${pick(pool)}]` : value(0);
      members.push(`"${pick(["tools", "messages", "input", "x"])}${m}"${ws()}:${ws()}${v}`);
    }
    let text = `{${ws()}${members.join(`,${ws()}`)}${ws()}}`;
    const z = rand();
    // Trailing text (whitespace or garbage after the root), or one character changed anywhere.
    if (z < 0.05) text += pick([" ", "\n", " x", "]", " ]", '"]"']);
    else if (z < 0.1) {
      const at = Math.floor(rand() * text.length);
      text = text.slice(0, at) + pick(["", "]", ",", '"', "x", "[", "{"]) + text.slice(at + (rand() < 0.5 ? 1 : 0));
    }
    out.push(text);
  }
  return out;
}

describe("readSharedJson is readJson on every path", () => {
  // First, while the cache has room (the random bodies below fill it, and a full cache forgets as it keeps).
  it("counts the item ends of an array read without a scan in the cache's bytes once they are found", () => {
    const item = (k: number) => `{"name": "ends${k}", "description": "${"b".repeat(300)}"}`;
    const list = (n: number) => `[${Array.from({ length: n }, (_, k) => item(k)).join(", ")}]`;
    const first = readSharedJson(`{"z": ${list(3)}}`) as { z: object[] };
    const before = sharedJsonStats();
    // A grown version: the first array's ends are found to share its items, and the new one is kept with its own.
    const grown = readSharedJson(`{"z": ${list(4)}}`) as { z: object[] };
    expect(grown.z[2]).toBe(first.z[2]);
    const after = sharedJsonStats();
    const entry = (text: string, ends: number) => 256 + 16 * text.length + 8 * ends;
    expect(after.bytes - before.bytes).toBe(8 * 3 + entry(list(4), 4) + entry(item(3), 0));
  });

  it.each([1, 2, 3])("reads 1500 random bodies (seed %i) as readJson does: values, float marks, key order, errors", (seed) => {
    const limit = Error.stackTraceLimit;
    let failures = 0;
    for (const text of bodies(seed, 1500)) {
      const expected = outcome(readJson, text);
      if (expected.startsWith("JsonSyntaxError") || expected.startsWith("SyntaxError")) failures++;
      expect(outcome(readSharedJson, text), text).toBe(expected);
      // The native read sets it to 0 around JSON.parse: it must be back, thrown or not.
      expect(Error.stackTraceLimit).toBe(limit);
    }
    // The bodies reach the error paths too, but most are JSON.
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(750);
  });

  it("cuts a last array where it ends, whatever `]` follows it in a string or after the root", () => {
    const pad = "q".repeat(300);
    const item = (k: number) => `{"name": "cut${k}", "description": "${pad}", "n": [1, 2.5, {"m": -3}]}`;
    const list = `[${item(1)}, ${item(2)}]`;
    const texts = [
      `{"tools": ${list}, "s": "a]b"}`,
      `{"tools": ${list}, "s": ["x]"]}`,
      `{"tools": ${list}, "s": "]"} `,
      `{"tools": ${list}}  \n`,
      `{"tools": ${list}} ]`,
      `{"tools": ${list}} x`,
      `{"tools": ${list}, "s": "1.0]"}`,
      `{"tools": ${list}, "m": [${item(3)}]}`,
      `{"tools": [${list}, ${list}], "m": "]]"}`,
      `[${list}, ${list}]`,
      `{"tools": ${list.slice(0, -1)}, "s": "]"}`, // the array never closes before the string's `]`
      // JSON.parse's message quotes the text: a quoted "at position N" must not be taken for where it stopped.
      `{"tools": ${list}, "s": "Unexpected token at position 12 ]"}`,
      `{"tools": ${list}, "s": [at position 12]}`,
      `{"tools": [${item(4)}, x at position 3], "s": "]"}`,
      `{"tools": [${item(5)}, "at position 12"] , "t": [1]}`,
    ];
    for (const text of texts) expect(outcome(readSharedJson, text), text).toBe(outcome(readJson, text));
  });

  it("cuts an array that is not the body's last where it ends when the follower comes as far from its start as last time, or elsewhere", () => {
    // Each case's first body notes what follows its list (`, 1, 2, 3, 4, 5,`) and how long the list
    // was; the next is cut at that length first where the follower comes there: right after a list as
    // long, in a longer one's string, in what follows a shorter one, after a space that follows one.
    const same = "abcdefghijklmnopqrstuvwxyz0123456789";
    const tail = ", 1, 2, 3, 4, 5, 6, 7, 8]";
    const cases = [
      (list: (s: string) => string) => `[${list(same.toUpperCase())}${tail}`,
      // The list ends 15 characters past its string: the old length falls 51 characters into this one.
      (list: (s: string) => string) => `[${list(`${same}${"x".repeat(15)}, 1, 2, 3, 4, 5, 6`)}${tail}`,
      (list: (s: string) => string) => `[${list(same.slice(3))}, 9${tail}`,
      (list: (s: string) => string) => `[${list(same.slice(1))} ${tail}`,
    ];
    for (const [i, next] of cases.entries()) {
      const pad = `${i}${"g".repeat(300)}`;
      const list = (s: string) => `[{"p": "${pad}", "d": "${s}"}, {"q": 1.0}]`;
      for (let round = 0; round < 2; round++) {
        for (const text of [`[${list(same)}${tail}`, next(list)]) expect(outcome(readSharedJson, text), text.slice(300)).toBe(outcome(readJson, text));
      }
    }
  });

  it("keeps each body's own float-ness when one fingerprint alternates between integral floats and none", () => {
    const pad = "f".repeat(300);
    for (let i = 0; i < 60; i++) {
      const n = ["1.0", "1", "-0.0", "0", "1E5", "100000", "2.5", "1e-7"][i % 8]!;
      const last = i % 3 === 0;
      const text = last ? `{"tools": [{"p": "${pad}"}, {"x": ${n}, "i": ${i}}]}` : `{"tools": [{"p": "${pad}"}, {"x": ${n}, "i": ${i}}], "t": [${n}]}`;
      expect(outcome(readSharedJson, text), text).toBe(outcome(readJson, text));
      // The very same text again: kept, with the same marks.
      expect(outcome(readSharedJson, text), text).toBe(outcome(readJson, text));
    }
  });

  it("reads a string written \\u0000... as a string in a body without integral floats of a fingerprint that had them", () => {
    // The last array of this fingerprint held `1.0`, so the next are read with their floats marked; a
    // body with none to mark is parsed as it is, and its NUL-led strings are no marks.
    const pad = "n".repeat(300);
    const texts = [
      `{"tools": [{"p": "${pad}", "v": 1}, {"x": 1.0}]}`,
      `{"tools": [{"p": "${pad}", "v": 2}, {"x": 1, "s": "\\u0000abc", "t": ["\\u00001.0"]}]}`,
      `{"tools": [{"p": "${pad}", "v": 3}, {"x": 1.0}]}`,
      `{"tools": [{"p": "${pad}", "v": 4}, {"x": 1, "s": "\\u0000"}], "u": 1}`,
      `{"tools": [{"p": "${pad}", "v": 5}, {"x": 2.0, "s": "\\u0000"}]}`,
    ];
    for (const text of texts) expect(outcome(readSharedJson, text), text.slice(300)).toBe(outcome(readJson, text));
  });

  it("marks every integral float packed among other numbers and float-like strings, in a fingerprint that had one", () => {
    // The float search looks at a digit, then `.`, `e` or `E`, then what JSON allows after those (a
    // digit, or a sign after an exponent), and resumes past the three: whatever a literal passed over
    // is followed by, the literal after it is still found, and text that only looks like a float is not.
    const items = [
      "[2.5,1.0]", "[1e-7,3e0]", "[1.25e1,2.0]", "[1.5e1]", "[-0.0,-1.0]", "[1.0e0,1e2,1E2,1e+2,1E-0]", "[0.1e1,12.5e-1,10e-1]",
      '{"a":2.5e-3,"b":4.0}', '{"a":1.1,"b":0.0}', '["2.x",1.0]', '["v1.e",2e0]', '["1.1.0",3.0]', '["e1.0",5.0]', '["2e",6.0]',
      '{"k\\\\":7.0}', '{"k\\"":8.0}', '["\\": 9.0",1]', '["a\\\\", 11.0]', '{"x":[12.0,[13.0e0]]}', '[", 1.0", 10.0]',
      "[1.e5]", "[2.]", "[3e]", "[01.0]", "[1.0.0]", "[-.5]",
    ];
    for (const [i, item] of items.entries()) {
      // Fingerprints of their own, whose first body holds `1.0`: their next arrays are read with their
      // floats marked first, as the body's last array or cut where what followed the first comes.
      for (const after of ["", ', "t": [1]']) {
        const pad = `${i}${after}${"z".repeat(300)}`;
        // First items that differ past the fingerprint's characters: nothing of the first body is reused.
        const first = `{"tools": [{"p": "${pad}", "v": 0}, {"x": 1.0}]${after}}`;
        expect(outcome(readSharedJson, first)).toBe(outcome(readJson, first));
        const text = `{"tools": [{"p": "${pad}", "v": 1}, ${item}]${after}}`;
        expect(outcome(readSharedJson, text), text.slice(300)).toBe(outcome(readJson, text));
      }
    }
  });

  it("reads random bodies of a few fingerprints, integral floats in some, mark-like strings in others, as readJson", () => {
    // A fingerprint that had `1.0` is read with its floats marked before the parse from then on: each
    // body must still be read as its own text says, whatever looks like a number or a mark in a string.
    const rand = seededRandom(24);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
    // No integer `-0`: readJson keeps the sign JSON.parse gives it, the item reader does not (both print `0`).
    const nums = ["1.0", "-0.0", "1E5", "1e400", "1e-400", "-1e-400", "2", "2.5", "0.0", "10.00", "1.5e1", "0e0", "3.0E+0"];
    const strs = ["[1.0]", ", 2.0", '\\": 3.0', '\\\\\\\\\\": 4.0', "\\u0000", "\\u00001.0", ",1.0", "[ 1.0", ":1.0", "x\\\\", "\u2028", "\u007f", "a\\\\", '\\"'];
    const ws = () => pick(["", " ", "\n ", "\t", "\r\n"]);
    const value = (d: number): string => {
      const x = rand();
      if (d > 3 || x < 0.5) return rand() < 0.5 ? pick(nums) : `"${pick(strs)}"`;
      if (x < 0.75) return `[${ws()}${Array.from({ length: Math.floor(rand() * 3) }, () => value(d + 1)).join(`${ws()},${ws()}`)}${ws()}]`;
      return `{${Array.from({ length: Math.floor(rand() * 3) }, (_, i) => `${ws()}"${rand() < 0.3 ? pick(["a", "a\\\\", "1", "__proto__"]) : `k${i}`}"${ws()}:${ws()}${value(d + 1)}`).join(",")}}`;
    };
    const pad = "y".repeat(300);
    for (let i = 0; i < 2000; i++) {
      const depth = 994 + Math.floor(rand() * 8);
      const extra = rand() < 0.1 ? `, ${"[".repeat(depth)}${pick(nums)}${"]".repeat(depth)}` : rand() < 0.1 ? `, {"b": "\\u0000${pick(nums)}"}` : "";
      const array = `[${ws()}{"p": "${pad}${i % 3}", "v": ${i}}${ws()},${ws()}${value(0)}${extra}]`;
      const x = rand();
      const text = x < 0.4 ? `{"tools": ${array}}` : x < 0.7 ? `{"tools": ${array}, "m": ${value(0)}}` : x < 0.85 ? `{"tools": ${array}, "s": "${pick(strs)}]"}` : `[${array}, ${value(0)}]`;
      expect(outcome(readSharedJson, text), text.slice(300, 500)).toBe(outcome(readJson, text));
    }
  });

  it("gives readJson's error for nesting past the limit and bad JSON inside a new last array", () => {
    const pad = "e".repeat(300);
    const texts = [
      `{"m": [{"a": "${pad}"}, ${"[".repeat(998)}${"]".repeat(998)}]}`, // 1000 levels: the limit
      `{"m": [{"a": "${pad}"}, ${"[".repeat(999)}${"]".repeat(999)}]}`, // 1001: too deep
      `{"m": [{"a": "${pad}"}, ${"{\"k\": ".repeat(999)}1${"}".repeat(999)}]}`,
      `{"m": [{"a": "${pad}"}, {"b": 01}]}`,
      `{"m": [{"a": "${pad}"}, {"b": 1,}]}`,
      `{"m": [{"a": "${pad}"}, {"b": "\u0001"}]}`,
      `{"m": [{"a": "${pad}"}, {"b": tru}]}`,
      `{"m": [{"a": "${pad}"} {"b": 1}]}`,
    ];
    for (const text of texts) {
      const limit = Error.stackTraceLimit;
      expect(outcome(readSharedJson, text), text.slice(-60)).toBe(outcome(readJson, text));
      expect(Error.stackTraceLimit).toBe(limit);
    }
  });

});
