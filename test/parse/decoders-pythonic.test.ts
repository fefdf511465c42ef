/**
 * The call-list decoder (src/parse/decoders/pythonic.ts) for Python calls, LFM2's Python-or-JSON
 * regions and Gemma 4 (its `literal-calls` payload, src/formats/gemma4.ts). Each case is decoded whole, at every single cut
 * and code point by code point, and must give the same calls (decoders-harness.ts).
 */
import { describe, expect, it } from "vitest";
import { compilePayload } from "../../src/parse/compile-format.js";
import { getFormat } from "../../src/formats/index.js";

const gemma4Calls = compilePayload(getFormat("gemma4").regions[0]!.payload);
import { jsonCalls } from "../../src/parse/decoders/json-calls.js";
import { pythonicCalls } from "../../src/parse/decoders/pythonic.js";
import { pythonicOrJsonCalls } from "../../src/parse/decoders/pythonic-or-json.js";
import { callsOf, contextOf, decodeEverySplit } from "./decoders-harness.js";

const NONE = contextOf();
const SELF_CLOSING = { ...NONE, selfClosing: true };
const lfm2 = pythonicOrJsonCalls(jsonCalls());

describe("pythonic", () => {
  it("reads a list of calls with Python literal arguments", () => {
    const r = decodeEverySplit(pythonicCalls, NONE, "[register_user(name='John Doe', age=37, address={'city': '東京'}, role=None, passed_test=True, aliases=['John', \"Johnny\"]), ping()]");
    expect(callsOf(r)).toEqual([
      { name: "register_user", arguments: { name: "John Doe", age: 37, address: { city: "東京" }, role: null, passed_test: true, aliases: ["John", "Johnny"] } },
      { name: "ping", arguments: {} },
    ]);
    expect(r.calls[0]!.arguments).toBe('{"name": "John Doe", "age": 37, "address": {"city": "東京"}, "role": null, "passed_test": true, "aliases": ["John", "Johnny"]}');
    expect(r.calls.map((c) => c.raw)).toEqual([
      "register_user(name='John Doe', age=37, address={'city': '東京'}, role=None, passed_test=True, aliases=['John', \"Johnny\"])",
      "ping()",
    ]);
  });

  it("names a call in a bare list once its arguments look real", () => {
    const d = pythonicCalls(SELF_CLOSING);
    expect(d.push("[get_weather(")).toEqual([]);
    expect(d.push("city=")).toEqual([
      { kind: "call", name: "get_weather" },
      { kind: "args", text: '{"city": ' },
    ]);
    const named = pythonicCalls(NONE);
    expect(named.push("[get_weather(")).toEqual([{ kind: "call", name: "get_weather" }]);
  });

  it("reads a bare call without brackets, and dotted names", () => {
    expect(callsOf(decodeEverySplit(pythonicCalls, NONE, 'weather.get(city="Paris")'))).toEqual([{ name: "weather.get", arguments: { city: "Paris" } }]);
  });

  it("ends a bare list at its ] and hands the rest back", () => {
    const r = decodeEverySplit(pythonicCalls, SELF_CLOSING, "[get_weather(location='Tokyo')] Here's the forecast: [1]", false);
    expect(callsOf(r)).toEqual([{ name: "get_weather", arguments: { location: "Tokyo" } }]);
    expect(r.rest).toBe(" Here's the forecast: [1]");
  });

  it("fails a [ that does not start a call before naming one (prose)", () => {
    for (const prose of ["[1, 2]", "[see the docs]", "[]", "[Note]: x", "[note(s) apply]", "[f(1)]"]) {
      const r = decodeEverySplit(pythonicCalls, SELF_CLOSING, prose, false);
      expect(r.calls, prose).toEqual([]);
      expect(r.regionFail?.type, prose).toBe("malformed");
    }
  });

  it("fails a broken call after a good one; without end marker the rest goes back to the engine", () => {
    const text = "[get_weather(city='SF'), f(a='x 'y', b='z')] after";
    const inRegion = decodeEverySplit(pythonicCalls, NONE, text);
    expect(callsOf(inRegion)).toEqual([{ name: "get_weather", arguments: { city: "SF" } }, { name: "f", fail: "malformed" }]);
    expect(inRegion.calls[1]!.fail!.raw).toBe("f(a='x 'y', b='z')] after");
    const bare = decodeEverySplit(pythonicCalls, SELF_CLOSING, text, false);
    expect(bare.calls[1]!.fail!.raw).toBe("f(a='x '");
    expect(bare.rest).toBe("y', b='z')] after");
  });

  it("rejects nested calls and positional arguments", () => {
    expect(callsOf(decodeEverySplit(pythonicCalls, NONE, "[f(x=g(1))]"))).toEqual([{ name: "f", fail: "malformed" }]);
    expect(callsOf(decodeEverySplit(pythonicCalls, NONE, "[f('x')]"))).toEqual([{ name: "f", fail: "malformed" }]);
  });

  it("reports a call cut off by the end of the output as truncated", () => {
    const r = decodeEverySplit(pythonicCalls, SELF_CLOSING, "[f(code='print(1)", false);
    expect(r.calls).toEqual([{ name: "f", fail: { type: "truncated", raw: "f(code='print(1)" } }]);
  });

  it("keeps the calls when only the list's ] is missing at the end", () => {
    expect(callsOf(decodeEverySplit(pythonicCalls, SELF_CLOSING, "[f(a=1)", false))).toEqual([{ name: "f", arguments: { a: 1 } }]);
  });
});

describe("lfm2", () => {
  it("reads Python calls", () => {
    expect(callsOf(decodeEverySplit(lfm2, NONE, '[get_weather(city="Paris"), search(query="restaurants")]'))).toEqual([
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "search", arguments: { query: "restaurants" } },
    ]);
  });

  it("reads JSON call objects, in a list or bare", () => {
    expect(callsOf(decodeEverySplit(lfm2, NONE, '[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "search", "arguments": {"q": "x"}}]'))).toEqual([
      { name: "get_weather", arguments: { city: "Paris" } },
      { name: "search", arguments: { q: "x" } },
    ]);
    expect(callsOf(decodeEverySplit(lfm2, NONE, '  {"name": "get_weather", "arguments": {"city": "Rome"}}'))).toEqual([{ name: "get_weather", arguments: { city: "Rome" } }]);
  });

  it("fails an empty region", () => {
    expect(decodeEverySplit(lfm2, NONE, "").regionFail?.type).toBe("malformed");
    expect(decodeEverySplit(lfm2, NONE, " [ ").regionFail?.type).toBe("malformed");
  });
});

describe("gemma4", () => {
  it("reads call:name{...} with Gemma strings and bare keys", () => {
    const r = decodeEverySplit(gemma4Calls, NONE, 'call:get_weather{location:<|"|>São Paulo<|"|>,days:3,metric:true,extra:{tags:[<|"|>a<|"|>,<|"|>b<|"|>]}}');
    expect(callsOf(r)).toEqual([{ name: "get_weather", arguments: { location: "São Paulo", days: 3, metric: true, extra: { tags: ["a", "b"] } } }]);
    expect(r.calls[0]!.arguments).toBe('{"location": "São Paulo", "days": 3, "metric": true, "extra": {"tags": ["a", "b"]}}');
  });

  it("reads no arguments and several calls in one region", () => {
    expect(callsOf(decodeEverySplit(gemma4Calls, NONE, "call:get_status{}call:ping{n:1}"))).toEqual([
      { name: "get_status", arguments: {} },
      { name: "ping", arguments: { n: 1 } },
    ]);
  });

  it("fails text that is not a call, and reports truncation", () => {
    expect(decodeEverySplit(gemma4Calls, NONE, "get_weather{}").regionFail?.type).toBe("malformed");
    expect(decodeEverySplit(gemma4Calls, NONE, 'call:get_weather{location:<|"|>London', false).calls).toEqual([
      { name: "get_weather", fail: { type: "truncated", raw: 'call:get_weather{location:<|"|>London' } },
    ]);
  });
});
