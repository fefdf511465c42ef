/**
 * Descriptions are checked at run time against the format language (src/parse/validate-format.ts): an
 * unknown key, a wrong type or an unknown payload kind is an `invalid_format` ChatwireError naming the
 * path, raised when the description is compiled (parse) or a grammar is emitted from it.
 */
import { describe, expect, it } from "vitest";
import { ChatwireError } from "../../src/errors.js";
import { getFormat, listFormats } from "../../src/formats/index.js";
import { buildGbnf } from "../../src/grammar/gbnf-grammar.js";
import { buildStructuralTag } from "../../src/grammar/structural-tag.js";
import { parseCompletion } from "../../src/parse/index.js";
import type { FormatDescription } from "../../src/parse/language.js";
import { validateFormat } from "../../src/parse/validate-format.js";

/** A copy of hermes with `edit` applied to a deep clone (the original stays registered and valid). */
function hermesWith(edit: (d: Record<string, any>) => void): FormatDescription {
  const copy = structuredClone(getFormat("hermes")) as Record<string, any>;
  edit(copy);
  return copy as FormatDescription;
}

function failure(desc: FormatDescription): ChatwireError {
  try {
    validateFormat(desc);
  } catch (e) {
    expect(e).toBeInstanceOf(ChatwireError);
    return e as ChatwireError;
  }
  throw new Error("the description was accepted");
}

describe("validateFormat", () => {
  it("accepts every registered family", () => {
    for (const f of listFormats()) expect(() => validateFormat(f), f.id).not.toThrow();
  });

  it.each([
    ["an unknown top-level key", (d: Record<string, any>) => (d["regoins"] = []), "regoins", /unknown key/],
    ["an unknown payload kind", (d: Record<string, any>) => (d["regions"][0].payload = { kind: "json-cals" }), "regions[0].payload.kind", /unknown payload kind "json-cals"/],
    ["a missing payload kind", (d: Record<string, any>) => (d["regions"][0].payload = {}), "regions[0].payload.kind", /unknown payload kind/],
    ["an unknown payload key", (d: Record<string, any>) => (d["regions"][0].payload.nameKey = ["n"]), "regions[0].payload.nameKey", /unknown key/],
    ["a wrong value type", (d: Record<string, any>) => (d["regions"][0].start = "<tool_call>"), "regions[0].start", /expected an array/],
    ["a missing required key", (d: Record<string, any>) => delete d["regions"][0].start, "regions[0].start", /expected an array, got nothing/],
    ["a bad enum value", (d: Record<string, any>) => (d["idStyle"] = "uuid"), "idStyle", /expected one of "openai", "mistral"/],
    ["a bad nested payload", (d: Record<string, any>) => (d["regions"][0].payload = { kind: "by-first-char", cases: { "{": { kind: "nope" } }, otherwise: { kind: "json-calls" } }), "regions[0].payload.cases.{.kind", /unknown payload kind "nope"/],
  ])("rejects %s, naming its path", (_what, edit, path, message) => {
    const e = failure(hermesWith(edit));
    expect(e.code).toBe("invalid_format");
    expect(e.field).toBe(path);
    expect(e.message).toMatch(message);
    expect(e.message).toContain(path);
  });

  it("checks tagged, xml and channel shapes too", () => {
    const qwen = structuredClone(getFormat("qwen3-coder")) as Record<string, any>;
    qwen["regions"][0].payload.otherwise.params.clsoe = "</parameter>";
    expect(failure(qwen as FormatDescription).field).toBe("regions[0].payload.otherwise.params.clsoe");
    const harmony = structuredClone(getFormat("harmony")) as Record<string, any>;
    harmony["channels"].rules[0] = { find: "x", whole: "y", to: "content" };
    expect(failure(harmony as FormatDescription).field).toBe("channels.rules[0]");
    const kimi = structuredClone(getFormat("kimi-k3")) as Record<string, any>;
    kimi["regions"][0].payload.params.by = "attr";
    expect(failure(kimi as FormatDescription).field).toBe("regions[0].payload.params.by");
  });

  it("runs when a description is parsed with or a grammar is emitted from", () => {
    const bad = hermesWith((d) => (d["regions"][0].payload.kind = "jsoncalls"));
    expect(() => parseCompletion(bad, "hi")).toThrow(/regions\[0\]\.payload\.kind/);
    expect(() => buildGbnf(bad, { tools: [] })).toThrow(/regions\[0\]\.payload\.kind/);
    expect(() => buildStructuralTag(bad, { tools: [] })).toThrow(/regions\[0\]\.payload\.kind/);
  });
});
