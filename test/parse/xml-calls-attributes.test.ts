/**
 * xml-calls heads (Kimi K3 `<|open|>argument key="k" type="t"<|sep|>`): an attribute written twice
 * makes the tag no tag, so neither value vanishes (found by the fuzz suite: `type="nut" type="number"`
 * gave a call with `limit: 5` and the word `nut` nowhere).
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const SEARCH = { type: "function", function: { name: "search", parameters: { type: "object", properties: { limit: { type: "number" } } } } };
const t = tester("kimi-k3").tools([SEARCH]);
const call = (head: string) => `<|open|>tools<|sep|><|open|>call tool="search"<|sep|><|open|>${head}<|sep|>5<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`;

describe("xml-calls attributes", () => {
  it("one key and one type: a call", () => {
    t.test(call('argument key="limit" type="number"')).expect({ content: null, tool_calls: [{ name: "search", arguments: { limit: 5 } }] });
  });
  it("an attribute written twice: malformed, the text kept", () => {
    t.test(call('argument key="limit" type="nut" type="number"'))
      .errors([{ type: "malformed", name: "search" }])
      .expect({ content: call('argument key="limit" type="nut" type="number"') });
    t.test(call('argument key="a" key="limit" type="number"'))
      .errors([{ type: "malformed", name: "search" }])
      .expect({ content: call('argument key="a" key="limit" type="number"') });
  });
});
