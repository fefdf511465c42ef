/**
 * The region marker repairs (wild-fix3): another protocol's token where the end marker belongs
 * (`foreign-closer`), the end marker repeated after a call (`repeated-closer`), the start marker written
 * twice (`repeated-opener`), a call opened by the end marker (`closer-as-opener`), and a lone fence
 * closer after a call (`fence-closer`). One-shot and every split (the tester); a call that does not
 * validate gets no repair, and its text stays content.
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const AREA = [{ type: "function", function: { name: "area", parameters: { type: "object", properties: { r: { type: "integer" } }, required: ["r"] } } }];
const call = (r: number | string, name = "area"): string => `{"arguments": {"r": ${r}}, "name": "${name}"}`;
const area = (r: number) => ({ name: "area", arguments: { r } });

describe("foreign-closer", () => {
  it("hermes: <|im_start|> ends the call and belongs to it; prose after it is content", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(5)}\n<|im_start|>\nThe area is 78.5.`)
      .errors([{ type: "repaired", repair: "foreign-closer", name: "area", call: 0, text: "<|im_start|>" }])
      .expect({ content: "\nThe area is 78.5.", tool_calls: [area(5)] });
  });

  it("a call that does not validate keeps its text, the token included, with its error and no repair", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call('"x"')}\n<|im_start|>`)
      .errors([{ type: "invalid_arguments", name: "area" }])
      .expect({ content: `<tool_call>\n${call('"x"')}\n<|im_start|>`, tool_calls: [] });
  });

  it("outside a call the token is text", () => {
    tester("hermes").tools(AREA).test("a <|im_start|> b").expect({ content: "a <|im_start|> b", tool_calls: [] });
  });
});

describe("repeated-closer", () => {
  it("hermes: </tool_call> twice after a call: the second is that call's", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(1)}\n</tool_call>\n</tool_call>\n<tool_call>\n${call(2)}\n</tool_call>`)
      .errors([{ type: "repaired", repair: "repeated-closer", call: 0, text: "</tool_call>" }])
      .expect({ content: null, tool_calls: [area(1), area(2)] });
  });

  it("a third closer, or one after text, is text", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(1)}\n</tool_call></tool_call></tool_call>`)
      .errors([{ type: "repaired", repair: "repeated-closer", call: 0 }])
      .expect({ content: "</tool_call>", tool_calls: [area(1)] });
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(1)}\n</tool_call>\nDone.</tool_call>`)
      .expect({ content: "\nDone.</tool_call>", tool_calls: [area(1)] });
  });

  it("after a call that did not validate, the closer is text", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(1, "nope")}\n</tool_call>\n</tool_call>`)
      .errors([{ type: "unknown_tool", name: "nope" }])
      .expect({ content: `<tool_call>\n${call(1, "nope")}\n</tool_call>\n</tool_call>`, tool_calls: [] });
  });
});

describe("repeated-opener", () => {
  it("hermes: <tool_call> twice before a call: one start marker, reported", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(1)}\n</tool_call>\n<tool_call>\n<tool_call>\n${call(2)}\n</tool_call>\n`)
      .errors([{ type: "repaired", repair: "repeated-opener", call: 1, text: "<tool_call>" }])
      .expect({ content: null, tool_calls: [area(1), area(2)] });
  });

  it("a call that does not validate keeps both openers in content, with no repair", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n<tool_call>\n${call(1, "nope")}\n</tool_call>`)
      .errors([{ type: "unknown_tool", name: "nope" }])
      .expect({ content: `<tool_call>\n<tool_call>\n${call(1, "nope")}\n</tool_call>`, tool_calls: [] });
  });
});

describe("closer-as-opener", () => {
  it("hermes: a call opened by </tool_call> (after a call, or first)", () => {
    tester("hermes")
      .tools(AREA)
      .test(`<tool_call>\n${call(1)}\n</tool_call>\n</tool_call>\n${call(2)}\n</tool_call>\n<tool_call>\n${call(3)}\n</tool_call>`)
      .errors([{ type: "repaired", repair: "closer-as-opener", call: 1, text: "</tool_call>" }])
      .expect({ content: null, tool_calls: [area(1), area(2), area(3)] });
    tester("hermes")
      .tools(AREA)
      .test(`</tool_call>\n${call(4)}\n</tool_call>`)
      .errors([{ type: "repaired", repair: "closer-as-opener", call: 0 }])
      .expect({ content: null, tool_calls: [area(4)] });
  });

  it("what it opens that is no call is text, without an error; a call that does not validate keeps its error", () => {
    tester("hermes").tools(AREA).test("x </tool_call>\n{not a call} y").errors([]).expect({ content: "x </tool_call>\n{not a call} y", tool_calls: [] });
    tester("hermes")
      .tools(AREA)
      .test(`</tool_call>\n${call(1, "nope")}\n</tool_call>`)
      .errors([{ type: "unknown_tool", name: "nope" }])
      .expect({ content: `</tool_call>\n${call(1, "nope")}\n</tool_call>`, tool_calls: [] });
  });
});

const BINOM = [{ type: "function", function: { name: "binom", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } } }];

describe("fence-closer and the ```python fence (pythonic)", () => {
  it("a lone ``` after the list (its opener never written) belongs to the call", () => {
    tester("pythonic")
      .tools(BINOM)
      .test("[binom(n=10), \n binom(n=15)]\n```")
      .errors([{ type: "repaired", repair: "fence-closer", call: 1, text: "```" }])
      .expect({ content: null, tool_calls: [{ name: "binom", arguments: { n: 10 } }, { name: "binom", arguments: { n: 15 } }] });
    tester("pythonic")
      .tools(BINOM)
      .test("[binom(n=1)]\n```\nDone.")
      .errors([{ type: "repaired", repair: "fence-closer", call: 0 }])
      .expect({ content: "\nDone.", tool_calls: [{ name: "binom", arguments: { n: 1 } }] });
  });

  it("a fence that opens a code block after the list is content", () => {
    tester("pythonic")
      .tools(BINOM)
      .test("[binom(n=1)]\n```python\nprint(1)\n```")
      .errors([])
      .expect({ content: "\n```python\nprint(1)\n```", tool_calls: [{ name: "binom", arguments: { n: 1 } }] });
    tester("pythonic")
      .tools(BINOM)
      .test("[binom(n=1)]\n``` x")
      .errors([])
      .expect({ content: "\n``` x", tool_calls: [{ name: "binom", arguments: { n: 1 } }] });
  });

  it("the list in a ```python fence between sentences: both fence lines are the call's", () => {
    tester("pythonic")
      .tools(BINOM)
      .test("It is:\n\n```python\n[binom(n=3)]\n```\n\nThat is all.")
      .errors([
        { type: "repaired", repair: "fence", call: 0, text: "```python" },
        { type: "repaired", repair: "fence", call: 0, text: "```" },
      ])
      .expect({ content: "It is:\n\n\n\nThat is all.", tool_calls: [{ name: "binom", arguments: { n: 3 } }] });
  });
});

describe("python-literal (hermes)", () => {
  const DISP = [{ type: "function", function: { name: "disp", parameters: { type: "object", properties: { v: { type: "number" }, s: { type: "string" } }, required: ["v"] } } }];
  it("a call object with '...' strings is read as the Python literal it is", () => {
    const obj = `{"arguments": {'v': 15, 's': "it's"}, "name": 'disp'}`;
    tester("hermes")
      .tools(DISP)
      .test(`<tool_call>\n${obj}\n</tool_call>\n`)
      .errors([{ type: "repaired", repair: "python-literal", name: "disp", call: 0, text: obj }])
      .expect({ content: null, tool_calls: [{ name: "disp", arguments: { v: 15, s: "it's" } }] });
  });

  it("an undeclared name, invalid arguments, other keys or no literal keep the text and an error, no repair", () => {
    for (const [obj, type] of [
      [`{'name': 'nope', 'arguments': {'v': 1}}`, "unknown_tool"],
      [`{'name': 'disp', 'arguments': {'s': 'x'}}`, "invalid_arguments"],
      [`{'name': 'disp', 'arguments': {'v': 1}, 'x': 1}`, "malformed"],
      [`{'name': 'disp', 'arguments': {'v': 1}`, "malformed"],
    ] as const) {
      tester("hermes")
        .tools(DISP)
        .test(`<tool_call>\n${obj}\n</tool_call>`)
        .errors([{ type }])
        .expect({ content: `<tool_call>\n${obj}\n</tool_call>`, tool_calls: [] });
    }
  });

  it("a JSON call object is read as before, with no repair", () => {
    tester("hermes").tools(DISP).test(`<tool_call>\n{"name": "disp", "arguments": {"v": 1}}\n</tool_call>`).errors([]).expect({ content: null, tool_calls: [{ name: "disp", arguments: { v: 1 } }] });
  });
});
