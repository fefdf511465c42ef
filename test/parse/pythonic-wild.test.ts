/**
 * The pythonic family on real BFCL completions (fixtures/wild/pythonic, issue 18): a call written
 * without its `[...]` (the `bare-call` tolerance in its own call syntax), a stray `(` after a good call,
 * and a keyword given twice. Each case runs one-shot, code point by code point, at random cuts and at
 * every two-push cut (the tester).
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const tool = (name: string, properties: Record<string, unknown>, required: string[] = []) => ({
  type: "function",
  function: { name, parameters: { type: "object", properties, required } },
});
const RESERVE = [tool("nature_reserve.find_nearby", { location: { type: "string" }, amenities: { type: "array", items: { type: "string" } }, proximity: { type: "integer" } }, ["location", "amenities", "proximity"])];
const FOOD = [tool("ChaFod", { TheFod: { type: "string" } }, ["TheFod"])];

describe("pythonic: text that stays beside a valid call", () => {
  it("a stray ( after a good call: the call is read, the rest is content, and the error's text is only what content kept", () => {
    const second = '(nature_reserve.find_nearby(location="Tokyo", amenities=["Playgrounds"], proximity=5)]';
    tester("pythonic")
      .tools(RESERVE)
      .test(`[nature_reserve.find_nearby(location="Berkeley", amenities=["Picnic Tables"], proximity=10), ${second}`)
      .errors([{ type: "malformed", message: 'not a call: "("', text: "" }])
      .expect({ content: second, tool_calls: [{ name: "nature_reserve.find_nearby", arguments: { location: "Berkeley", amenities: ["Picnic Tables"], proximity: 10 } }] });
  });

  it("a failed item after a good call keeps its own text as the error's", () => {
    tester("pythonic")
      .tools(FOOD)
      .test('[ChaFod(TheFod="A"), ChaFod(TheFod=@)]')
      .errors([{ type: "malformed", name: "ChaFod", text: "ChaFod(TheFod=" }])
      .expect({ content: "ChaFod(TheFod=@)]", tool_calls: [{ name: "ChaFod", arguments: { TheFod: "A" } }] });
  });
});

describe("pythonic: a keyword given twice", () => {
  it("is no call (Python refuses f(a=1, a=2)): malformed, its text kept", () => {
    const text = '[ChaFod(TheFod="GREENS", TheFod="PIZZA")]';
    tester("pythonic")
      .tools(FOOD)
      .test(text)
      .errors([{ type: "malformed", message: 'keyword argument "TheFod" repeated', name: "ChaFod", text: '[ChaFod(TheFod="GREENS", TheFod' }])
      .expect({ content: text });
    tester("pythonic")
      .tools(FOOD)
      .test(`<|python_start|>${text}<|python_end|>`)
      .errors([{ type: "malformed", name: "ChaFod" }])
      .expect({ content: `<|python_start|>${text}<|python_end|>` });
  });

  it("a dict argument may repeat a key, as Python's dict literal does (the last wins)", () => {
    tester("pythonic")
      .tools([tool("f", { d: { type: "object" } })])
      .test("[f(d={'a': 1, 'a': 2})]")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { d: { a: 2 } } }] });
  });
});
