/** The server's JSON out (src/server/json-text.ts): PyFloat printed as its number wherever it sits, all else as JSON.stringify prints it. */
import { describe, expect, it } from "vitest";
import { PyFloat } from "../src/jinja/py-float.js";
import { readJson } from "../src/request/read-json.js";
import { toJson } from "../src/server/json-text.js";

describe("toJson", () => {
  it("prints PyFloat as a number at any depth, and everything else as JSON.stringify", () => {
    const deep = { a: [1, 2, { b: [new PyFloat(1), "x"] }], c: null };
    expect(toJson(deep)).toBe('{"a":[1,2,{"b":[1,"x"]}],"c":null}');
    expect(toJson([new PyFloat(2)])).toBe("[2]");
    expect(toJson(new PyFloat(3))).toBe("3");
    const read = readJson('{"t": 1.0, "ids": [1, 2, 3], "s": {"k": [0.5, 2.0]}}');
    expect(toJson(read)).toBe('{"t":1,"ids":[1,2,3],"s":{"k":[0.5,2]}}');
    const plain = { ids: Array.from({ length: 1000 }, (_, i) => i), text: "a\u2028b", when: new Date(0), nested: { toJSON: () => ({ f: new PyFloat(4) }) } };
    expect(toJson(plain)).toBe(JSON.stringify({ ...plain, nested: { f: 4 } }));
    expect(toJson(undefined)).toBe(undefined);
  });
});
