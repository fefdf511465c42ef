/** The format language's marker patterns as Python regex text, for exported response templates. */
import { describe, expect, it } from "vitest";
import { HOLE_CLASS } from "../../src/parse/patterns.js";
import { pyAnyOf, pyLiteral, pyPattern, pyUnnamed } from "../../src/response-template/python-pattern.js";

describe("python patterns", () => {
  it("escapes regex syntax and writes control characters as escapes", () => {
    expect(pyLiteral("<|tool_call|>[x]{y}.*+?^$#\n")).toBe("<\\|tool_call\\|>\\[x\\]\\{y\\}\\.\\*\\+\\?\\^\\$\\#\\n");
  });

  it("puts the longer literal first, so it wins where one is a prefix of another", () => {
    expect(pyAnyOf(["<|channel>thought", "<|channel>thought\n", "<|channel>thought"])).toBe("(?:<\\|channel>thought\\n|<\\|channel>thought)");
    expect(pyAnyOf(["</s>"])).toBe("</s>");
  });

  it("translates holes, spaces, quotes, optional parts and escapes", () => {
    const name = HOLE_CLASS.name!;
    expect(pyPattern('<invoke name="{name}">', new Set(["name"]))).toBe(`<invoke\\s+name=["'](?P<name>${name})["']>`);
    // Only the holes asked for are groups; an index is digits.
    expect(pyPattern("functions.{name}:{index}", new Set(["name"]))).toBe(`functions\\.(?P<name>${name}):(?:\\d+)`);
    expect(pyPattern("[function<sep>][ ]{name}", new Set())).toBe(`(?:function<sep>)?(?:\\s+)?(?:${name})`);
    expect(pyPattern("{name}\\[CALL_ID\\]{id}", new Set(["name"]))).toBe(`(?P<name>${name})\\[CALL_ID\\](?:${HOLE_CLASS.id})`);
  });

  it("makes named groups plain for a lookaround in another field, leaving escapes and classes alone", () => {
    expect(pyUnnamed(`<f=(?P<name>[^(?P<x>)]+)>\\(?P<y>`)).toBe(`<f=(?:[^(?P<x>)]+)>\\(?P<y>`);
    expect(pyUnnamed("(?:a|(?P<name>\\w+))")).toBe("(?:a|(?:\\w+))");
  });
});
