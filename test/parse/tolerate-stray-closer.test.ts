/**
 * The `stray-closer` tolerance (issue 18, kind 1): a call written without its opener, then the opener's
 * closer, reads the closer as part of the call and reports the repair. One-shot and every split (the
 * tester); nothing is repaired for a call that does not validate.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { getFormat } from "../../src/formats/index.js";
import { foldDeltas, parseCompletion, createStreamParser } from "../../src/parse/index.js";
import { withoutIndex } from "../../src/server/held-calls.js";

const EXEC = [{ type: "function", function: { name: "exec_command", parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } } }];
const BARE = "<function=exec_command>\n<parameter=cmd>\necho LEAK_TEST\n</parameter>\n</function>";

describe("stray-closer", () => {
  it("qwen3-coder: a bare <function=...> call then </tool_call> (ollama#17742): the closer belongs to the call", () => {
    tester("qwen3-coder")
      .tools(EXEC)
      .test(`I'll run it.\n\n${BARE}\n</tool_call>\n`)
      .errors([{ type: "repaired", repair: "stray-closer", name: "exec_command", call: 0, text: "</tool_call>" }])
      .expect({ content: "I'll run it.\n\n", tool_calls: [{ name: "exec_command", arguments: { cmd: "echo LEAK_TEST" } }] });
  });

  it("the repair names the call by its position in tool_calls, and each bare call may have its closer", () => {
    tester("qwen3-coder")
      .tools(EXEC)
      .test(`${BARE}</tool_call>\n${BARE.replace("LEAK_TEST", "2")}\n</tool_call>`)
      .errors([
        { type: "repaired", repair: "stray-closer", call: 0 },
        { type: "repaired", repair: "stray-closer", call: 1 },
      ])
      .expect({ content: null, tool_calls: [{ name: "exec_command", arguments: { cmd: "echo LEAK_TEST" } }, { name: "exec_command", arguments: { cmd: "echo 2" } }] });
  });

  it("after a dropped call the repair still names the right call", () => {
    const r = parseCompletion("qwen3-coder", `<tool_call>\n<function=exec_command>\n</function>\n</tool_call>\n${BARE}\n</tool_call>`, { tools: EXEC });
    expect(r.message.tool_calls?.map((c) => c.function.arguments)).toEqual(['{"cmd": "echo LEAK_TEST"}']);
    expect(r.errors.map((e) => [e.type, e.call])).toEqual([["invalid_arguments", undefined], ["repaired", 0]]);
  });

  it("held calls (serve): a repair's call is renumbered as the kept calls are", () => {
    const errors = [
      { type: "invalid_arguments" as const, message: "m", text: "t", index: 0 },
      { type: "repaired" as const, repair: "stray-closer" as const, message: "m", text: "</tool_call>", call: 1 },
    ];
    expect(withoutIndex(errors)).toEqual([
      { type: "invalid_arguments", message: "m", text: "t" },
      { type: "repaired", repair: "stray-closer", message: "m", text: "</tool_call>", call: 0 },
    ]);
  });

  it("text between the call and the closer: the closer is text", () => {
    tester("qwen3-coder")
      .tools(EXEC)
      .test(`${BARE}\nDone.</tool_call>`)
      .expect({ content: "\nDone.</tool_call>", tool_calls: [{ name: "exec_command", arguments: { cmd: "echo LEAK_TEST" } }] });
  });

  it("a bare call that does not validate keeps its text and its closer in content, with its error and no repair", () => {
    tester("qwen3-coder")
      .tools(EXEC)
      .test("<function=exec_command>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>")
      .errors([{ type: "invalid_arguments", name: "exec_command" }])
      .expect({ content: "<function=exec_command>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>", tool_calls: [] });
    tester("qwen3-coder")
      .tools(EXEC)
      .test("<function=rm_rf>\n</function>\n</tool_call>")
      .errors([{ type: "unknown_tool", name: "rm_rf" }])
      .expect({ content: "<function=rm_rf>\n</function>\n</tool_call>", tool_calls: [] });
  });

  it("a closer after a call that had its opener is text, as before", () => {
    tester("qwen3-coder")
      .tools(EXEC)
      .test(`<tool_call>\n${BARE}\n</tool_call>\n</tool_call>`)
      .expect({ content: "\n</tool_call>", tool_calls: [{ name: "exec_command", arguments: { cmd: "echo LEAK_TEST" } }] });
  });

  it("a closer cut off at the end of the output is text", () => {
    tester("qwen3-coder")
      .tools(EXEC)
      .test(`${BARE}\n</tool_ca`)
      .expect({ content: "\n</tool_ca", tool_calls: [{ name: "exec_command", arguments: { cmd: "echo LEAK_TEST" } }] });
  });

  it("the closer may be a section's end: bare calls of a sectioned family, then the section closer", () => {
    // The mechanism is generic: a description whose bare calls may be followed by its section end.
    const base = getFormat("deepseek-v3.1");
    const begin = "<｜tool▁calls▁begin｜>";
    const end = "<｜tool▁calls▁end｜>";
    const f = { ...base, tolerate: [{ kind: "stray-closer" as const, after: base.regions[0]!.start[0]!, closer: [end], missing: begin, evidence: "https://github.com/chatwire/chatwire/issues/18" }] };
    const call = (city: string) => `<｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "${city}"}<｜tool▁call▁end｜>`;
    const text = `Checking.${call("Paris")}${call("Rome")}${end}`;
    const tools = { tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }] };
    const one = parseCompletion(f, text, tools, { idGenerator: () => "call_x" });
    expect(one.message.content).toBe("Checking.");
    expect(one.message.tool_calls?.length).toBe(2);
    expect(one.errors).toEqual([{ type: "repaired", repair: "stray-closer", message: `"${end}" after a call written without "${begin}" read as the call's closer`, text: end, name: "get_weather", call: 1 }]);
    for (let i = 0; i <= text.length; i++) {
      const p = createStreamParser(f, tools, { idGenerator: () => "call_x" });
      expect(foldDeltas([...p.push(text.slice(0, i)), ...p.push(text.slice(i)), ...p.end()]), `cut at ${i}`).toEqual(one);
    }
    // Without the tolerance the closer is content, as before.
    expect(parseCompletion(base, text, tools).message.content).toBe(`Checking.${end}`);
  });
});
