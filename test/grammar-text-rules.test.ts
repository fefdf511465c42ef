/**
 * textWithout keeps the rules it built by what decides them (src/grammar/text-rules.ts): a builder
 * that meets them again must get the same rules under its own names, and anything that changes them
 * (the excluded characters, which are a function) must not meet a kept answer.
 */
import { describe, expect, it } from "vitest";
import { GbnfBuilder } from "../src/grammar/gbnf.js";
import { textWithout } from "../src/grammar/text-rules.js";

function rules(builder: GbnfBuilder): string[] {
  return builder.toString().trim().split("\n");
}

describe("textWithout's kept rules", () => {
  it("gives a second builder the same rules, renamed where its names are taken", () => {
    const first = new GbnfBuilder();
    const a = textWithout(first, "content", ["<tool_call>", "</think>"], { maxWhitespace: 3 });
    const second = new GbnfBuilder();
    second.add("content", '"x"');
    second.add("content-1", '"y"');
    const b = textWithout(second, "content", ["<tool_call>", "</think>"], { maxWhitespace: 3 });
    expect(a).toBe("content");
    expect(b).not.toBe("content");
    const own = rules(second).slice(2);
    // Every rule name the kept rules refer to is one this builder defines.
    const defined = new Set(rules(second).map((r) => r.split(" ::= ")[0]));
    for (const r of own) for (const ref of r.split(" ::= ")[1]!.match(/content[-\w]*/g) ?? []) expect(defined.has(ref)).toBe(true);
    // The same rules, up to names: rename both to the order they appear in.
    const canon = (lines: string[]): string[] => {
      const names = lines.map((l) => l.split(" ::= ")[0]!);
      const index = new Map(names.map((n, i) => [n, `R${i}`]));
      return lines.map((l) => l.replace(/content(-\d+)*/g, (n) => index.get(n) ?? n));
    };
    expect(canon(own)).toEqual(canon(rules(first)));
  });

  it("tells apart options that differ only in which characters `excluded` answers for", () => {
    const quote = (q: string) => {
      const builder = new GbnfBuilder();
      textWithout(builder, "chars", ['"x'], { exclude: "\\\\", excluded: (ch) => ch === q || ch === "\\" });
      return builder.toString();
    };
    const plain = quote("'");
    expect(quote('"')).not.toBe(plain);
    expect(quote("'")).toBe(plain);
  });
});
