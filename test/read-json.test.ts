/**
 * readJson's JSON.parse path with marked floats, and readSharedJson's reuse by content. The expectation
 * for every random document is the value it was written from (floats kept as PyFloat), not the output of
 * another path of the same reader.
 */
import { describe, expect, it } from "vitest";
import { PyFloat } from "../src/jinja/py-float.js";
import { collected } from "./helpers/collected.js";
import { JsonSyntaxError, jsonSyntaxError, notJsonMessage, readJson } from "../src/request/read-json.js";
import { fieldOfPointer, placeOfField } from "../src/request/locate.js";
import { readSharedJson, sharedJsonStats } from "../src/request/read-shared-json.js";
import { hasKeyOrder } from "../src/jinja/key-order.js";
import { normalizeRequest } from "../src/request/index.js";
import { compileTemplate } from "../src/jinja/index.js";
import { seededRandom } from "./helpers/rng.js";

/**
 * A random JSON value, with integral floats as PyFloat, plus the text that writes it. Objects are
 * written as Maps: a Map keeps every key where it was first set, as a Python dict does, which is the
 * order the reader must keep (integer-like keys included, where a JS object would list them first).
 */
function randomValue(rand: () => number, depth: number): { value: unknown; text: string } {
  const pick = rand();
  if (depth > 4 || pick < 0.35) {
    const kind = Math.floor(rand() * 7);
    if (kind === 0) {
      const n = Math.floor(rand() * 2000) - 1000;
      return { value: new PyFloat(n), text: rand() < 0.5 ? `${n}.0` : `${n}e0` };
    }
    if (kind === 1) {
      const x = Math.floor(rand() * 1e6) / 64;
      return { value: x, text: JSON.stringify(x) };
    }
    if (kind === 2) {
      const n = Math.floor(rand() * 1e6) - 5e5;
      return { value: n, text: String(n) };
    }
    if (kind === 3) {
      const chars = ['"', "\\", "\n", "\u0000", "é", "深", "😀", "1.0", "{", "]", " ", "a"];
      let s = "";
      for (let i = Math.floor(rand() * 8); i > 0; i--) s += chars[Math.floor(rand() * chars.length)];
      return { value: s, text: JSON.stringify(s) };
    }
    const scalar = [true, false, null, "__proto__"][kind - 3]!;
    return { value: scalar, text: JSON.stringify(scalar) };
  }
  const n = Math.floor(rand() * 5);
  if (pick < 0.65) {
    const items = Array.from({ length: n }, () => randomValue(rand, depth + 1));
    return { value: items.map((i) => i.value), text: `[${items.map((i) => i.text).join(rand() < 0.5 ? "," : ", ")}]` };
  }
  const value = new Map<string, unknown>();
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const key = ["a", "b", "__proto__", "x y", "1.0", "2", "10", "0", "01", "4294967295", "4294967294"][Math.floor(rand() * 11)]!;
    const item = randomValue(rand, depth + 1);
    value.set(key, item.value);
    parts.push(`${JSON.stringify(key)}: ${item.text}`);
  }
  return { value, text: `{${parts.join(", ")}}` };
}

/**
 * Deep equality that tells PyFloat(1) from 1 and keeps own-key order (toEqual ignores both). `b` may
 * write an object as a Map (the expected key order).
 */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof PyFloat || b instanceof PyFloat) return a instanceof PyFloat && b instanceof PyFloat && Object.is(a.value, b.value);
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = b instanceof Map ? [...(b.keys() as Iterable<string>)] : Object.keys(b);
  const vb = (k: string): unknown => (b instanceof Map ? b.get(k) : (b as Record<string, unknown>)[k]);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(a, k) && same((a as Record<string, unknown>)[k], vb(k)));
}

describe("readJson", () => {
  it("refuses a number JSON does not allow even where its value is an integral float (01.0, 1.e5), as JSON.parse and Python do", () => {
    const pad = "n".repeat(300);
    for (const literal of ["01.0", "-01.0", "00.0", "1.e5", "01e2", "-00.5e1"]) {
      for (const text of [`[${literal}]`, `{"a": ${literal}}`, `{"t": [{"p": "${pad}"}, {"x": ${literal}}]}`, `{"t": {"p": "${pad}", "x": ${literal}}}`, `{"1": ${literal}}`]) {
        expect(() => JSON.parse(text), text).toThrow(SyntaxError);
        expect(() => readJson(text), text).toThrow(JsonSyntaxError);
        expect(() => readSharedJson(text), text).toThrow(JsonSyntaxError);
      }
    }
    // Its neighbours in JSON stay floats.
    expect(readJson("[0.0, -0.0, 1.0e5, 10.0, 1E+2]")).toEqual([new PyFloat(0), new PyFloat(-0), new PyFloat(1e5), new PyFloat(10), new PyFloat(100)]);
  });

  it("reads 3000 random documents back to the values they were written from", () => {
    const rand = seededRandom(7);
    for (let i = 0; i < 3000; i++) {
      const { value, text } = randomValue(rand, 0);
      const wrapped = `{"body": ${text}}`; // a root object, as requests are
      expect(same(readJson(wrapped), new Map([["body", value]])), wrapped).toBe(true);
    }
  });

  it("does not mistake a string the sender wrote with a NUL escape for a float mark", () => {
    const v = readJson('{"s": "\\u00001.0", "n": 2.0}') as Record<string, unknown>;
    expect(v.s).toBe("\u00001.0");
    expect(v.n).toEqual(new PyFloat(2));
  });

  it("keeps a float under a __proto__ key an own property, not the prototype", () => {
    const v = readJson('{"__proto__": 1.0}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toEqual(new PyFloat(1));
  });

  it("reports bad JSON with a position on the float path too", () => {
    expect(() => readJson('{"a": 1.0, "b": }')).toThrow(/position 16/);
  });

  it("refuses a raw control character in a short or long string on the reader's path (an integer-like key takes it), as JSON.parse does", () => {
    for (const s of ["a\u0001", "\t", "b\n", `${"c".repeat(40)}\u001f`]) {
      const text = `{"1": "${s}", "k": "${s}"}`;
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => readJson(text)).toThrow(/bad string \(control character or escape\) at line 1, column 7/);
      expect(() => readSharedJson(text)).toThrow(/bad string/);
    }
    // Escaped, they are read (short strings without an escape are taken as they are).
    expect(readJson('{"1": "a\\u0001", "k": "ok", "m": "\\t"}')).toEqual({ 1: "a\u0001", k: "ok", m: "\t" });
  });
});

describe("readSharedJson", () => {
  const tool = (name: string, description: string) => ({ type: "function", function: { name, description, parameters: { type: "object", properties: { x: { type: "number", default: 1.5 } } } } });
  const body = (messages: unknown[], tools = [tool("a", "first"), tool("b", "second")]) =>
    JSON.stringify({ model: "m", messages, tools }, null, 2).replace(/1\.5/g, "1.0");

  it("reads the same values as readJson", () => {
    const rand = seededRandom(11);
    for (let i = 0; i < 1000; i++) {
      const { text } = randomValue(rand, 0);
      const wrapped = `{"messages": [${text}, ${text}], "x": ${text}}`;
      expect(same(readSharedJson(wrapped), readJson(wrapped)), wrapped).toBe(true);
    }
  });

  it("reads a grown or changed array (random items, then more, or fewer) as readJson does", () => {
    const rand = seededRandom(12);
    for (let i = 0; i < 400; i++) {
      const items = Array.from({ length: 2 + Math.floor(rand() * 12) }, () => randomValue(rand, 1).text);
      const more = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => randomValue(rand, 1).text);
      const sep = [",", ", ", ",\n  ", " ,\t"][Math.floor(rand() * 4)]!;
      const end = ["", "\n", " \n "][Math.floor(rand() * 3)]!;
      const first = `{"m": [${items.join(sep)}${end}]}`;
      const grown = `{"m": [${[...items, ...more].join(sep)}${end}]}`;
      expect(same(readSharedJson(first), readJson(first)), first).toBe(true);
      expect(same(readSharedJson(grown), readJson(grown)), grown).toBe(true);
      for (const changed of [[...items.slice(0, -1), ...more], items.slice(0, -1), [...items.slice(0, -2), ...more]]) {
        const t = `{"m": [${changed.join(sep)}${end}]}`;
        expect(same(readSharedJson(t), readJson(t)), t).toBe(true);
      }
    }
  });

  it("shares the items of a history sent again with new turns, even items too small to keep alone", () => {
    const history = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? "assistant" : "user", content: `turn ${i}` }));
    const text = (messages: unknown[]) => JSON.stringify({ messages }, null, 2);
    const first = readSharedJson(text(history)) as { messages: object[] };
    const next = readSharedJson(text([...history, { role: "user", content: "turn 20" }, { role: "assistant", content: "ok" }])) as { messages: object[] };
    expect(next.messages).not.toBe(first.messages);
    expect(next.messages).toHaveLength(22);
    for (let i = 0; i < 20; i++) expect(next.messages[i]).toBe(first.messages[i]); // each is under the size kept alone
    expect(next.messages[21]).toEqual({ role: "assistant", content: "ok" });
    // The last turns replaced (a reply regenerated) or dropped: the first items are still shared.
    const regenerated = readSharedJson(text([...history.slice(0, 19), { role: "assistant", content: "again" }])) as { messages: object[] };
    expect(regenerated.messages[18]).toBe(first.messages[18]);
    expect(regenerated.messages[19]).toEqual({ role: "assistant", content: "again" });
    const dropped = readSharedJson(text(history.slice(0, 18))) as { messages: object[] };
    expect(dropped.messages).toHaveLength(18);
    expect(dropped.messages[17]).toBe(first.messages[17]);
    // A last item that goes on (12 -> 123) is not the kept one followed by more.
    const pad = "p".repeat(300);
    const a = readSharedJson(`{"m": ["${pad}", 12]}`) as { m: unknown[] };
    const b = readSharedJson(`{"m": ["${pad}", 123]}`) as { m: unknown[] };
    expect(a.m[1]).toBe(12);
    expect(b.m[1]).toBe(123);
    readSharedJson(`{"m": ["${pad}", 1]}`);
    expect((readSharedJson(`{"m": ["${pad}", 1.5, 2]}`) as { m: unknown[] }).m).toEqual([pad, 1.5, 2]);
  });

  it("notes where each item of a long new array ends, whatever the item, for an array that repeats them", () => {
    const items = ['"s"', "12", "-1.0", "true", "false", "null", '{"k": [1, 2.0]}', '["x"]', `"${"p".repeat(300)}"`, "3e2"];
    const first = readSharedJson(`{"m": [${items.join(", ")}]}`) as { m: unknown[] };
    for (const next of [[...items, "7"], [...items.slice(0, -1), "4"], [...items, '"t"'], [...items.slice(0, 7), "nul"]]) {
      const t = `{"m": [${next.join(", ")}]}`;
      if (next.at(-1) === "nul") {
        expect(() => readSharedJson(t)).toThrow(SyntaxError);
        continue;
      }
      const read = readSharedJson(t) as { m: unknown[] };
      expect(same(read, readJson(t)), t).toBe(true);
      expect(read.m[6]).toBe(first.m[6]);
    }
  });

  it("reads a long new array's floats as readJson does, next to strings like a float's mark", () => {
    const pad = "z".repeat(300);
    for (const t of [
      `{"m": [{"s": "\\u00001.0"}, {"n": 2.0, "p": "${pad}"}, 3.0, [1, 1e2], -0.0]}`,
      `{"m": [{"s": "\\u00001.0", "n": 2.0, "p": "${pad}"}, {"__proto__": 1.0}]}`,
      `{"m": [{"__proto__": 1.0, "p": "${pad}"}, 4.5, {"s": "\\u0000"}]}`,
    ]) {
      const read = readSharedJson(t) as { m: object[] };
      expect(same(read, readJson(t)), t).toBe(true);
      expect(Object.isFrozen(read.m) && Object.isFrozen(read.m[0])).toBe(true);
    }
  });

  it("reads a long new array without a scan where nothing in it needs one, last member or not, as readJson does", () => {
    const pad = "w".repeat(300);
    const tool = (k: number) => `{"name": "t${k}", "description": "price: 12.99, release 2.4 ${pad}", "args": "{\\"x\\": 1.5}", "n": [1, 2, {"m": -3}]}`;
    const list = (n: number, from = 0) => `[${Array.from({ length: n }, (_, k) => tool(from + k)).join(",\n ")}]`;
    const texts = [
      `{"tools": ${list(3)}}`,
      `{"messages": ${list(2, 10)}, "tools": ${list(3, 20)}, "t": 0.5}`,
      `{"a": ${list(2, 30)} , "b": [1.0, "${pad}"], "c": {"x": [${list(1, 40)}]}}`,
      // What the walk or the float look-back must hand to the scan: an integer-like key, a float after a key, deep nesting.
      `{"m": [{"3": "x", "a": "${pad}"}, {"b": 1}]}`,
      `{"m": [{"a": "${pad}", "b": 2.0}]}`,
      `{"m": [{"a": "${pad}"}, ${"[".repeat(1200)}${"]".repeat(1200)}]}`,
      `{"m": [{"a": "${pad}"}, {"s": "a, 3.0"}, 4]}`,
      `{"m": [{"a": "${pad}", "b": 2.5, "c": 3, "d": "1e3 x: 4.0"}]}`,
      `{"m": [{"a": "${pad}", "b": -0.0}, 1e2]}`,
      // Bodies of one shape again (their arrays' fingerprints met before), other contents.
      `{"messages": ${list(2, 11)}, "tools": ${list(3, 21)}, "t": 0.5}`,
      `{"m": [{"a": "${pad}", "b": 2.0, "e": 1}]}`,
    ];
    for (const t of texts) {
      if (t.includes("[".repeat(1200))) {
        expect(() => readSharedJson(t)).toThrow(SyntaxError);
        continue;
      }
      const read = readSharedJson(t);
      expect(same(read, readJson(t)), t).toBe(true);
      for (const v of Object.values(read as Record<string, unknown>)) if (typeof v === "object") expect(Object.isFrozen(v)).toBe(true);
    }
    // Bodies of one fingerprint, with and without an integral float, last or not, many times over (some go to the scan, some are tried again).
    for (let i = 0; i < 40; i++) {
      const tail = i % 3 === 0 ? `{"x": ${i}.0, "p": "${pad}"}` : `{"x": ${i}, "p": "${pad}"}`;
      const t = i % 5 === 0 ? `{"q": [{"p": "${pad}"}, ${tail}], "r": [1, "${pad}"]}` : `{"q": [{"p": "${pad}"}, ${tail}]}`;
      expect(same(readSharedJson(t), readJson(t)), t).toBe(true);
    }
    // A grown version of a list read without a scan shares its items (their ends are found when needed).
    const first = readSharedJson(`{"z": ${list(3, 50)}, "k": 1}`) as { z: object[] };
    const grown = readSharedJson(`{"z": ${list(4, 50)}, "k": 1}`) as { z: object[] };
    expect(grown.z[2]).toBe(first.z[2]);
    expect(same(grown, readJson(`{"z": ${list(4, 50)}, "k": 1}`))).toBe(true);
    const again = readSharedJson(`{"z": ${list(3, 50)}, "k": 2}`) as { z: object[] };
    expect(again.z).toBe(first.z);
  });

  it("returns the same frozen subtrees for text read before, and a fresh root", () => {
    const history = [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }];
    const first = readSharedJson(body(history)) as { tools: object[]; messages: object[] };
    const next = readSharedJson(body([...history, { role: "user", content: "more" }])) as { tools: object[]; messages: object[] };
    expect(next.tools).toBe(first.tools); // the whole array had the same text
    expect(next.messages[0]).toBe(first.messages[0]);
    expect(next.messages[1]).toBe(first.messages[1]);
    expect(Object.isFrozen(next.tools) && Object.isFrozen(next.messages[0])).toBe(true);
    expect(Object.isFrozen(next)).toBe(false);
    expect(next).not.toBe(first);
    expect(((next.tools[0] as Record<string, Record<string, Record<string, unknown>>>).function!.parameters!.properties as Record<string, Record<string, unknown>>).x!.default).toEqual(new PyFloat(1));
  });

  it("reads a changed subtree afresh, even when its fingerprint is the same", () => {
    // Same length, one character changed: the sampled characters may well agree; the comparison decides.
    const a = readSharedJson('{"m": [{"content": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"}]}') as { m: { content: string }[] };
    const b = readSharedJson('{"m": [{"content": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2"}]}') as { m: { content: string }[] };
    const c = readSharedJson('{"m": [{"content": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1"}]}') as { m: { content: string }[] };
    expect(a.m[0]!.content.endsWith("1")).toBe(true);
    expect(b.m[0]!.content.endsWith("2")).toBe(true);
    expect(c.m[0]).toBe(a.m[0]);
  });

  it("tells apart long arrays alike in their first 256 characters and their end, and still shares their grown versions", () => {
    // Histories of one system prompt (one fingerprint, one bucket), each differing from the others at
    // character ~600 and ending alike, and each of at least 1536 characters (twice DEEP: so the second fingerprint applies).
    const history = (i: number) => [
      { role: "system", content: `${"s".repeat(560)} ${i} ${"t".repeat(900)}` },
      { role: "user", content: "u".repeat(1200) },
    ];
    const body = (messages: object[]) => JSON.stringify({ messages });
    const firsts = Array.from({ length: 6 }, (_, i) => (readSharedJson(body(history(i))) as { messages: object[] }).messages);
    for (let i = 0; i < 6; i++) {
      const again = (readSharedJson(body(history(i))) as { messages: object[] }).messages;
      expect(again).toBe(firsts[i]);
      const grown = (readSharedJson(body([...history(i), { role: "assistant", content: `reply ${i}` }])) as { messages: object[] }).messages;
      expect(grown[0]).toBe(firsts[i]![0]);
      expect(grown[1]).toBe(firsts[i]![1]);
      expect(grown[2]).toEqual({ role: "assistant", content: `reply ${i}` });
    }
    // One that differs from all of them only past the second fingerprint's 768 characters: the text decides.
    const late = history(3);
    late[1] = { role: "user", content: `${"u".repeat(1199)}v` };
    const other = (readSharedJson(body(late)) as { messages: { content: string }[] }).messages;
    expect(other).not.toBe(firsts[3]);
    expect(other[0]).toBe(firsts[3]![0]);
    expect(other[1]!.content.endsWith("v")).toBe(true);
  });

  it("cuts an array that is not the body's last where what followed it last time comes, and takes the cut only if it parses", () => {
    const tools = [{ type: "function", function: { name: "f", description: "d".repeat(60) } }];
    // One fingerprint per `c` (the system prompt's first 256 characters), a new first item each time (nothing shared).
    const body = (c: string, i: number, user: object) => JSON.stringify({ messages: [{ role: "system", content: `${c.repeat(300)} ${i}` }, user], tools });
    const texts = [
      body("s", 1, { role: "user", content: "one" }),
      body("s", 2, { role: "user", content: "two" }), // cut where `,"tools":[{"type` came after the first
      // A message with a member that reads as what follows the array, ahead of its real end: that cut does not parse.
      body("s", 3, { role: "user", content: "three", tools }),
      body("s", 4, { role: "user", content: "four" }),
      body("s", 4, { role: "user", content: "four" }),
      body("t", 1, { role: "user", content: "one" }),
      // Cut where the follower comes, holding an integral float (JSON.parse would make it an int): the scan reads it.
      body("t", 2, { role: "user", content: "two", n: "@float" }).replace('"@float"', "1.0"),
    ];
    const read = texts.map((t) => readSharedJson(t) as { messages: object[]; tools: object[] });
    texts.forEach((t, i) => expect(same(read[i], readJson(t))).toBe(true));
    expect(read[4]!.messages).toBe(read[3]!.messages);
    expect(read[1]!.tools).toBe(read[0]!.tools);
    expect((read[6]!.messages[1] as Record<string, unknown>).n).toEqual(new PyFloat(1));
  });

  it("shares the children of a subtree too large to keep whole", () => {
    const big = "x".repeat(300_000);
    const text = `{"messages": [{"role": "tool", "content": "${big}"}, {"role": "user", "content": "a question long enough to be kept"}], "pad": ["${big}"]}`;
    const a = readSharedJson(text) as { messages: object[] };
    const b = readSharedJson(text) as { messages: object[] };
    expect(b.messages).not.toBe(a.messages); // over the size kept whole
    expect(b.messages[1]).toBe(a.messages[1]);
    expect(same(b, readJson(text))).toBe(true);
  });

  it("shares a long item (over the 16383 characters V8 hashes in full) and tells same-length versions apart", () => {
    const pad = "q".repeat(20_000);
    // An object member of the root, so the object itself is looked up (not an array holding it).
    const body = (n: number, key: string) => `{"${key}": {"role": "tool", "content": "${pad}${n}"}}`;
    const a = readSharedJson(body(1, "a")) as Record<string, { content: string }>;
    const b = readSharedJson(body(2, "b")) as Record<string, { content: string }>;
    const again = readSharedJson(body(1, "c")) as Record<string, { content: string }>;
    expect(b.b!.content.endsWith("2")).toBe(true);
    expect(again.c).toBe(a.a);
    expect(again.c).not.toBe(b.b);
    expect(same(again, readJson(body(1, "c")))).toBe(true);
  });

  it("finds a subtree below the root again, or inside a short array; a long new array is kept as a whole", () => {
    const short = { role: "user", content: "a question long enough to be kept, under 256" };
    const long = { role: "tool", content: "r".repeat(400) };
    const below = readSharedJson(JSON.stringify({ a: short, b: long })) as { a: object; b: object };
    const moved = readSharedJson(JSON.stringify({ c: long, d: short })) as { c: object; d: object };
    expect(moved.c).toBe(below.b);
    expect(moved.d).toBe(below.a);
    // An array within its fingerprint's 256 characters is read item by item: its items are found by their text.
    const inShort = readSharedJson(JSON.stringify({ messages: [short] })) as { messages: object[] };
    expect(inShort.messages[0]).toBe(below.a);
    // A longer array seen nowhere before is read in one go: its items are new values, with no entries of
    // their own (issue 19: looking each up cost a fifth of reading a request that shares nothing). The
    // array is kept with where its items end, so the same array, or one that repeats its first items, shares them.
    const inLong = readSharedJson(JSON.stringify({ messages: [short, long] })) as { messages: object[] };
    expect(inLong.messages[0]).not.toBe(below.a);
    expect(inLong.messages[0]).toEqual(short);
    expect(Object.isFrozen(inLong.messages[1])).toBe(true);
    const grown = readSharedJson(JSON.stringify({ messages: [short, long, short] })) as { messages: object[] };
    expect(grown.messages[0]).toBe(inLong.messages[0]);
    expect(grown.messages[1]).toBe(inLong.messages[1]);
    expect((readSharedJson(JSON.stringify({ input: [short, long] })) as { input: object[] }).input).toBe(inLong.messages);
    // A prefix of a kept subtree is not that subtree: same first characters, the text decides.
    const longer = readSharedJson(JSON.stringify({ a: { ...long, name: "x" } })) as { a: Record<string, unknown> };
    expect(longer.a).not.toBe(below.b);
    expect(longer.a.name).toBe("x");
  });

  it("refuses a kept subtree where it would nest deeper than the reader allows", () => {
    const deep = "[".repeat(997) + "]".repeat(997);
    expect(same(readSharedJson(`{"a": ${deep}}`), readJson(`{"a": ${deep}}`))).toBe(true); // 998 levels: kept
    expect(same(readSharedJson(`[[[${deep}]]]`), readJson(`[[[${deep}]]]`))).toBe(true); // 1000 levels: the limit
    expect(() => readSharedJson(`[[[[${deep}]]]]`)).toThrow(/nested too deeply/); // 1001: the kept one is not taken
  });

  it("reports bad JSON with readJson's position for the whole text", () => {
    expect(() => readSharedJson('{"messages": [{"a": 1}, {"b": }]}')).toThrow(/position 30/);
    expect(() => readSharedJson('{"a": [}')).toThrow(SyntaxError);
    expect(() => readSharedJson("[".repeat(1001) + "]".repeat(1001))).toThrow(/nested too deeply/);
  });

  it("keeps a bounded amount of text: old subtrees are read afresh once many new ones came", () => {
    const text = '{"m": [{"k": "first, and long enough to be worth keeping"}]}';
    const first = readSharedJson(text) as { m: object[] };
    expect((readSharedJson(text) as { m: object[] }).m[0]).toBe(first.m[0]); // kept while there is room
    const filler = "y".repeat(16_000);
    for (let i = 0; i < 600; i++) readSharedJson(`{"m": [{"k": "${i}${filler}"}]}`); // about 2 x 9.6 M characters (array and object)
    const again = readSharedJson(text) as { m: object[] };
    expect(again.m[0]).not.toBe(first.m[0]);
    expect(again.m[0]).toEqual(first.m[0]);
  });

  it("lets go of an array pushed out of its full bucket: arrays alike in their first characters do not pile up", async () => {
    // The same first 256 characters (one fingerprint, one bucket of 16), then a part new in every body.
    const body = (i: number) => `{"messages": [{"content": "${"x".repeat(300)}"}, {"content": "turn ${i}"}]}`;
    const first = new WeakRef((readSharedJson(body(0)) as { messages: object }).messages);
    for (let i = 1; i <= 16; i++) readSharedJson(body(i));
    expect(await collected(first)).toBe(true);
  });

  it("keeps only every 32nd of a run of new arrays of one fingerprint once 16 came in a row, and finds a repeated one again", () => {
    // The same first 256 characters (one fingerprint of its own), then a part new in every body, in its
    // first item: none is asked for again, nor its first items shared.
    const body = (i: number) => `{"messages": [{"content": "${"q".repeat(300)} ${i}"}, {"content": "cold"}]}`;
    const read = (i: number) => (readSharedJson(body(i)) as { messages: object[] }).messages;
    const firsts = Array.from({ length: 41 }, (_, i) => read(i));
    // The 41st of the run was not kept (the same again is read afresh), nor the 17th (its bucket was emptied then) ...
    expect(read(40)).not.toBe(firsts[40]);
    expect(read(16)).not.toBe(firsts[16]);
    // ... the 32nd was, and is found again: that ends the run, so the next new one is kept.
    expect(read(31)).toBe(firsts[31]);
    const next = read(100);
    expect(read(100)).toBe(next);
    expect(next).toEqual([{ content: `${"q".repeat(300)} 100` }, { content: "cold" }]);
  });

  it("lets go of what its bound on bytes pushed out: the queue of entries does not hold on to them", async () => {
    // Arrays of 200,000 characters, each of its own fingerprint: 3.2 MB each by the estimate, so the
    // 16 MB bound keeps the last four or five and pushes out the first ones.
    const body = (i: number) => `{"messages": [{"content": "${i} ${"x".repeat(200_000)}"}]}`;
    const first = new WeakRef((readSharedJson(body(0)) as { messages: object }).messages);
    for (let i = 1; i <= 12; i++) readSharedJson(body(i));
    expect(await collected(first)).toBe(true);
  });

  it("holds at most 16 MB by its estimate, however many distinct small subtrees it is fed", () => {
    for (let i = 0; i < 20_000; i++) {
      readSharedJson(`{"tools": [{"type": "function", "function": {"name": "f${i}", "parameters": {"type": "object", "properties": {"p${i}": {"type": "string"}}}}}]}`);
    }
    const { entries, chars, bytes } = sharedJsonStats();
    expect(bytes).toBeLessThanOrEqual(16 << 20);
    expect(bytes).toBeGreaterThan(15 << 20); // full: the bound is what stopped it
    expect(bytes).toBeGreaterThanOrEqual(16 * chars); // every character counted at its measured weight
    expect(entries).toBeLessThan(1 << 16);
  });
});

describe("integer-like keys keep the text's order (Python's json.loads)", () => {
  const text = '{"b": 1, "10": 2, "a": 3, "2": 4}';
  const keys = ["b", "10", "a", "2"];

  it("in every enumeration the runtime makes, on both readers", () => {
    for (const read of [readJson, readSharedJson]) {
      const v = read(`{"x": ${text}, "pad": "long enough for the subtree to be shared across reads"}`) as { x: Record<string, unknown> };
      expect(Object.keys(v.x)).toEqual(keys);
      expect(JSON.stringify(v.x)).toBe('{"b":1,"10":2,"a":3,"2":4}');
      const seen: string[] = [];
      for (const k in v.x) seen.push(k);
      expect(seen).toEqual(keys);
      expect(Object.values(v.x)).toEqual([1, 2, 3, 4]);
      expect(v.x["10"]).toBe(2);
      expect(Object.getPrototypeOf(v.x)).toBe(Object.prototype);
      // What transformers prints for json.loads(text) with these templates:
      const t = compileTemplate("{{ x|tojson }}|{% for k, v in x|items %}{{ k }}{{ v }} {% endfor %}|{{ x }}|{{ x|dictsort|first }}");
      expect(t.render(v)).toBe('{"b": 1, "10": 2, "a": 3, "2": 4}|b1 102 a3 24 |{\'b\': 1, \'10\': 2, \'a\': 3, \'2\': 4}|(\'10\', 2)');
    }
  });

  it("keeps a repeated key where it first stood, with its last value", () => {
    const v = readJson('{"a": 1, "2": 2, "a": 3, "2": 4, "1": 5}') as Record<string, unknown>;
    expect(Object.entries(v)).toEqual([["a", 3], ["2", 4], ["1", 5]]);
  });

  it("takes only array indices as integer-like (the keys a JS object moves)", () => {
    const v = readJson('{"z": 0, "4294967295": 1, "01": 2, "-1": 3, "1.5": 4}') as Record<string, unknown>;
    expect(hasKeyOrder(v)).toBe(false); // a plain object: its own order is already the text's
    expect(Object.keys(v)).toEqual(["z", "4294967295", "01", "-1", "1.5"]);
    expect(Object.keys(readJson('{"z": 0, "4294967294": 1}') as object)).toEqual(["z", "4294967294"]);
  });

  it("leaves objects without such keys plain, including those with a digit-first string value", () => {
    const v = readJson('{"a": "2", "b": {"c": "10", "d": ["3"]}}') as { b: object };
    expect(hasKeyOrder(v) || hasKeyOrder(v.b)).toBe(false);
  });

  it("stays ordered when changed: new keys last, deleted keys gone, frozen shared values intact", () => {
    const v = readJson(text) as Record<string, unknown>;
    v["1"] = 5;
    v.c = 6;
    delete v.a;
    expect(Object.keys(v)).toEqual(["b", "10", "2", "1", "c"]);
    const shared = (readSharedJson(`{"t": [${text}, "shared when long enough....................."]}`) as { t: [Record<string, unknown>] }).t[0];
    expect(Object.isFrozen(shared)).toBe(true);
    expect(Object.keys(shared)).toEqual(keys);
  });

  it("survives request normalisation: messages, calls, arguments text, content parts, flat tools", () => {
    const body = readJson(`{
      "messages": [
        {"role": "user", "9": "x", "content": [{"type": "text", "text": "hi", "3": 1, "extra": 2}]},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "5": 0,
          "function": {"name": "f", "arguments": "{\\"b\\": 1, \\"1\\": 2}", "7": 1}}]}
      ],
      "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"x": {}, "1": {}}}}}]
    }`);
    const info = { readsContentParts: true, knowsDeveloperRole: false };
    const c = normalizeRequest(body, info);
    expect(Object.keys(c.messages[0]!)).toEqual(["role", "9", "content"]);
    expect(Object.keys((c.messages[0]!.content as object[])[0]!)).toEqual(["type", "text", "3", "extra"]);
    const call = (c.messages[1]!.tool_calls as Record<string, Record<string, unknown>>[])[0]!;
    expect(Object.keys(call)).toEqual(["id", "type", "5", "function"]);
    expect(Object.keys(call.function!)).toEqual(["name", "arguments", "7"]);
    expect(Object.keys(call.function!.arguments as object)).toEqual(["b", "1"]);
    expect(Object.keys(c.tools![0]!.function.parameters!.properties as object)).toEqual(["x", "1"]);
    const flat = normalizeRequest(readJson('{"input": "hi", "tools": [{"type": "function", "name": "f", "2": 1, "description": "d"}]}'), info);
    expect(Object.keys(flat.tools![0]!.function)).toEqual(["name", "2", "description"]);
  });
});

describe("errors that point into JSON text say line:column (issue 21)", () => {
  const bad = '{\n  "messages": [\n    {"role": "user"},\n  ]\n}';

  it("both readers throw where the mistake is, as line, column and offset", () => {
    for (const read of [readJson, readSharedJson]) {
      const err = (() => {
        try {
          read(bad);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(err).toBeInstanceOf(JsonSyntaxError);
      expect(err).toMatchObject({ line: 4, column: 3, position: bad.indexOf("]"), reason: 'unexpected character "]"' });
      expect((err as Error).message).toBe(`unexpected character "]" at line 4, column 3 (position ${bad.indexOf("]")})`);
      expect(notJsonMessage("req.json", err)).toBe('req.json:4:3: not valid JSON: unexpected character "]"');
    }
  });

  it("a text JSON.parse refused is re-read for the place", () => {
    let parseError: unknown;
    try {
      JSON.parse(bad);
    } catch (e) {
      parseError = e;
    }
    expect(jsonSyntaxError(bad, parseError)).toMatchObject({ line: 4, column: 3 });
  });

  it("a field path (a schema pointer's included) is found in the text; a missing one at its nearest enclosing value", () => {
    const text = '{"tools": [{"function": {"parameters": {"properties": {\n  "0": {"type": "string"},\n  "a.b": {"type": "strng"}}}}}]}';
    const schema = { properties: { "0": { type: "string" }, "a.b": { type: "strng" } } };
    const field = `tools[0].function.parameters${fieldOfPointer(schema, "/properties/a.b/type")}`;
    expect(field).toBe('tools[0].function.parameters.properties["a.b"].type');
    expect(placeOfField(text, field)).toEqual({ line: 3, column: 19 });
    // "0" is a key here, not an index.
    expect(fieldOfPointer(schema, "/properties/0")).toBe('.properties["0"]');
    expect(placeOfField(text, 'tools[0].function.parameters.properties["0"].type')).toEqual({ line: 2, column: 17 });
    expect(placeOfField(text, "tools[0].function.name")).toEqual({ line: 1, column: 25 });
    expect(placeOfField(text, "model")).toBeUndefined();
    expect(placeOfField("not json", "tools[0]")).toBeUndefined();
  });
});
