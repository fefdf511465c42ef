/**
 * The format language's pattern compiler (src/parse/patterns.ts): holes, optional parts, either quote,
 * whitespace runs, escapes; and bad patterns are refused with a typed error naming them.
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { compilePattern } from "../../src/parse/patterns.js";

describe("compilePattern", () => {
  it("reads holes from a whole text", () => {
    expect(compilePattern("<function={name}>").whole("<function=get_weather>")).toEqual({ name: "get_weather" });
    expect(compilePattern("functions.{name}:{index}").whole(" functions.get_weather:12 ")).toEqual({ name: "get_weather", index: "12" });
    expect(compilePattern("functions.{name}:{index}").whole("functions.get_weather:x")).toBeUndefined();
  });
  it("a quote matches either kind, closed by the same, and a space any whitespace run", () => {
    const p = compilePattern('<invoke name="{name}">');
    expect(p.whole('<invoke name="f">')).toEqual({ name: "f" });
    expect(p.whole("<invoke  \n name='f'>")).toEqual({ name: "f" });
    expect(p.whole("<invoke name=\"f'>")).toBeUndefined();
    expect(p.whole('<invoke name="f g">')).toBeUndefined();
  });
  it("optional parts and escapes", () => {
    const dsml = compilePattern('<｜DSML｜parameter name="{key}"[ string="{string}"]>');
    expect(dsml.whole('<｜DSML｜parameter name="city" string="true">')).toEqual({ key: "city", string: "true" });
    expect(dsml.whole('<｜DSML｜parameter name="city">')).toEqual({ key: "city" });
    const mistral = compilePattern("{name}\\[CALL_ID\\]{id}");
    expect(mistral.whole("get_weather[CALL_ID]a1b2c3d4e")).toEqual({ name: "get_weather", id: "a1b2c3d4e" });
  });
  it("a quoted known hole keeps its class", () => {
    expect(compilePattern('call tool="{name}"[ index="{index}"]').whole('call tool="f" index="1x"')).toBeUndefined();
    expect(compilePattern('call tool="{name}"[ index="{index}"]').whole('call tool="f" index="1"')).toEqual({ name: "f", index: "1" });
  });
  it("find and start", () => {
    const p = compilePattern(" to=functions.{name}");
    expect(p.find("assistant to=functions.get_weather<|channel|>commentary")).toEqual({ name: "get_weather" });
    expect(compilePattern("analysis").start("  analysis<|message|>")).toEqual({});
  });
  it("its literal prefix", () => {
    expect(compilePattern("<parameter={key}>").prefix).toBe("<parameter=");
    expect(compilePattern('<parameter name="{key}">').prefix).toBe("<parameter");
  });
  it("refuses bad patterns with invalid_format", () => {
    for (const bad of ["<a {name>", "[x", "x]", '"{name}', "{bad-name}", "a\\"]) {
      expect(() => compilePattern(bad), bad).toThrow(ChatwireError);
      try {
        compilePattern(bad);
      } catch (e) {
        expect((e as ChatwireError).code).toBe("invalid_format");
        expect((e as Error).message).toContain(JSON.stringify(bad));
      }
    }
  });
});
