/**
 * readSharedJson lists the string literals of a new tool list that hold an escape (KnownEscapes), and
 * tojson skips the escape test for every other string of those values. The text must come out as
 * json.dumps writes it whichever strings need an escape: the same as for the same values unmarked.
 */
import { describe, expect, it } from "vitest";
import { compileTemplate } from "../../src/jinja/index.js";
import { KnownEscapes, markOf } from "../../src/jinja/deep-frozen-marks.js";
import { escapedLiterals } from "../../src/request/escaped-literals.js";
import { readJson } from "../../src/request/read-json.js";
import { readSharedJson } from "../../src/request/read-shared-json.js";

const each = compileTemplate("{% for tool in tools %}{{ tool | tojson }}\n{% endfor %}");
const whole = compileTemplate("{{ tools | tojson }}|{{ tools | tojson(indent=2) }}|{{ tools | tojson(ensure_ascii=true) }}");

describe("escapedLiterals", () => {
  it("decodes each literal holding a backslash, once, in order", () => {
    expect(escapedLiterals(String.raw`{"a": "x\"y", "b": ["p\\", "q\n\t"], "c\t": "\\\""}`)).toEqual(['x"y', "p\\", "q\n\t", "c\t", '\\"']);
    expect(escapedLiterals('{"a": "plain", "b": ["x"]}')).toEqual([]);
    expect(escapedLiterals(String.raw`["a", "\u00e9\ud800", "b"]`)).toEqual(["\u00e9\ud800"]);
  });

  it("gives up past its bounds", () => {
    expect(escapedLiterals(JSON.stringify(["\n".repeat(40)]))).toBeUndefined();
    expect(escapedLiterals(JSON.stringify(Array.from({ length: 9 }, (_, i) => `${i}\n`)))).toBeUndefined();
    expect(escapedLiterals(JSON.stringify(["a", `${"x".repeat(5000)}\n`]))).toBeUndefined();
    expect(escapedLiterals(JSON.stringify(["a", `${"x".repeat(4000)}\n`]))).toHaveLength(1);
  });
});

describe("tojson of values read with their escapes listed", () => {
  const long = "a description long enough for the native escape test, written plainly";
  const tools = [
    { type: "function", function: { name: "plain", description: long, parameters: { type: "object", properties: { a: { type: "string", enum: ["x", "y"] } }, required: ["a"] } } },
    { type: "function", function: { name: "quoted", description: `${long} with "quotes" and a \\ backslash`, parameters: { type: "object", properties: {} } } },
    // Same length as an escaped string of another tool, but nothing to escape.
    { type: "function", function: { name: "same size", description: "same size", tags: ["new\nline", "newXline", "\u0001ctl", "\\\"", "end\\"] } },
    { type: "function", function: { name: "unicode", description: "caf\u00e9 \ud83d\ude00 lone \ud800 end", "k\"ey": { "\\": true, n: null, i: 3 } } },
  ];
  const body = `{"model": "m", "tools": ${JSON.stringify(tools, null, 1)}}`;

  it("marks the values and prints them as the unmarked ones", () => {
    const read = readSharedJson(body) as { tools: object[] };
    expect(read.tools.every((tool) => markOf(tool) instanceof KnownEscapes)).toBe(true);
    expect((markOf(read.tools[0]!) as KnownEscapes).escaped.length).toBeGreaterThan(0);
    const plain = JSON.parse(body) as { tools: object[] };
    expect(each.render({ tools: read.tools })).toBe(each.render({ tools: plain.tools }));
    expect(each.render({ tools: read.tools })).toContain(String.raw`"tags": ["new\nline", "newXline", "\u0001ctl", "\\\"", "end\\"]`);
    expect(each.render({ tools: read.tools })).toContain(String.raw`"k\"ey": {"\\": true, "n": null, "i": 3}`);
    const again = readSharedJson(body.replace('"m"', '"n"')) as { tools: object[] };
    expect(whole.render({ tools: again.tools })).toBe(whole.render({ tools: plain.tools }));
  });

  it("prints a string that needs an escape as such, whatever its length", () => {
    const strings = ['"', "\\", "\n", "\u001f", `${long}"`, `${long}\n`, `"${long}`, "x".repeat(30) + "\\"];
    const text = `{"tools": ${JSON.stringify([{ strings }])}}`;
    const read = readSharedJson(text) as { tools: object[] };
    expect(markOf(read.tools[0]!)).toBeInstanceOf(KnownEscapes);
    expect(each.render({ tools: read.tools })).toBe(`${JSON.stringify({ strings }).replace('{"strings":', '{"strings": ').replaceAll('","', '", "')}\n`);
  });
});

describe("tojson of strings whose lengths match a listed one's (KnownEscapes.lengths)", () => {
  it("escapes the listed strings and copies the others, whatever their lengths modulo 32", () => {
    // Listed: lengths 3, 31 (bit 31: the sign bit) and 40 (bit 8). Unlisted strings of lengths 3, 35,
    // 31, 63, 8 and 40 share those bits; the plain ones of other lengths test the bit alone.
    const listed = ['a"b', `${"x".repeat(30)}\\`, `${"y".repeat(39)}\n`];
    const plain = ["abc", "c".repeat(35), "d".repeat(31), "e".repeat(63), "f".repeat(8), "g".repeat(40), "hi", "j".repeat(33)];
    const tools = [{ listed, plain }, { plain }];
    const text = `{"tools": ${JSON.stringify(tools)}}`;
    const read = readSharedJson(text) as { tools: object[] };
    expect(markOf(read.tools[1]!)).toBeInstanceOf(KnownEscapes);
    expect((markOf(read.tools[1]!) as KnownEscapes).escaped).toEqual(listed);
    expect(each.render({ tools: read.tools })).toBe(each.render({ tools: (JSON.parse(text) as { tools: object[] }).tools }));
    expect(each.render({ tools: read.tools })).toContain(`"listed": ${JSON.stringify(listed).replaceAll('","', '", "')}`);
  });
});

describe("tojson of a tool list with integral floats read with its escapes listed", () => {
  it("prints the floats and the escapes as readJson's values", () => {
    const body = String.raw`{"tools": [{"name": "f\"1", "parameters": {"minimum": 0.0, "default": "a\nb", "enum": ["a\\b", "ab", "a b"]}, "notes": "${"n".repeat(300)}"}, {"name": "g", "x": 2.50}], "model": "m"}`;
    const read = readSharedJson(body) as { tools: object[] };
    expect(markOf(read.tools[0]!)).toBeInstanceOf(KnownEscapes);
    const out = each.render({ tools: read.tools });
    expect(out).toBe(each.render({ tools: (readJson(body) as { tools: object[] }).tools }));
    expect(out).toContain(String.raw`{"name": "f\"1", "parameters": {"minimum": 0.0, "default": "a\nb", "enum": ["a\\b", "ab", "a b"]}`);
  });
});

describe("tojson of random tool lists read with readSharedJson", () => {
  it("matches the same values parsed plainly", () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 16) % n;
    const chars = ["a", "b", " ", '"', "\\", "\n", "\t", "\u0001", "\u00e9", "\ud800", "\ud83d\ude00", "/"];
    // Mostly plain strings, a few with characters to escape (a tool list with more is not listed).
    const str = (plainly: boolean) => {
      const dirty = !plainly && rand(6) === 0;
      return Array.from({ length: rand(40) }, () => (dirty && rand(4) === 0 ? chars[rand(chars.length)]! : chars[rand(3)]!)).join("");
    };
    let marked = 0;
    let listed = 0;
    for (let round = 0; round < 300; round++) {
      const plainly = rand(2) === 0;
      const tools = Array.from({ length: 1 + rand(4) }, () => ({
        type: "function",
        function: { name: str(plainly), description: str(plainly), parameters: { type: "object", properties: { [str(plainly)]: { type: "string", enum: [str(plainly), str(plainly)] } } }, notes: "n".repeat(300) },
      }));
      const body = `{"round": ${round}, "tools": ${JSON.stringify(tools)}}`;
      const read = readSharedJson(body) as { tools: object[] };
      const mark = markOf(read.tools[0]!);
      if (mark instanceof KnownEscapes) {
        marked++;
        if (mark.escaped.length > 0) listed++;
      }
      expect(each.render({ tools: read.tools })).toBe(each.render({ tools: (JSON.parse(body) as { tools: object[] }).tools }));
    }
    expect(marked).toBeGreaterThan(200);
    expect(listed).toBeGreaterThan(50);
  });
});
