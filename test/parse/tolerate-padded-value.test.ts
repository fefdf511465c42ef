/**
 * The `padded-value` tolerance (qwen3-coder, docker-agent#2263): a one-line value written with spaces
 * where the template writes a newline on each side, `<parameter=cmd> ls -lha </parameter>`, is read
 * without the padding and the repair is reported. One-shot and every split (the tester); whitespace
 * that is the value's own (more than one line, one side only, the template's newlines present) stays.
 */
import { describe, it } from "vitest";
import { stringTool, toolWith as tool } from "../helpers/string-tool.js";
import { tester } from "../helpers/tester.js";

const SHELL = [stringTool("shell", "cmd")];
const EDIT = [stringTool("edit", "old_string")];

describe("padded-value", () => {
  it("the docker-agent#2263 call: one space each side of a one-line value is layout", () => {
    tester("qwen3-coder")
      .tools(SHELL)
      .test("<tool_call>\n<function=shell>\n<parameter=cmd> ls -lha </parameter>\n</function>\n</tool_call>")
      .errors([{ type: "repaired", repair: "padded-value", name: "shell", call: 0, text: " ls -lha " }])
      .expect({ content: null, tool_calls: [{ name: "shell", arguments: { cmd: "ls -lha" } }] });
  });

  it("runs of spaces and tabs on both sides go too; an enum value then validates", () => {
    tester("qwen3-coder")
      .tools([tool("set", { unit: { type: "string", enum: ["celsius", "fahrenheit"] } })])
      .test("<tool_call>\n<function=set>\n<parameter=unit>\t celsius  </parameter>\n</function>\n</tool_call>")
      .errors([{ type: "repaired", repair: "padded-value", call: 0, text: "\t celsius  " }])
      .expect({ content: null, tool_calls: [{ name: "set", arguments: { unit: "celsius" } }] });
  });

  it("a typed value reads its trimmed text anyway: nothing is repaired", () => {
    tester("qwen3-coder")
      .tools([tool("wait", { seconds: { type: "integer" } })])
      .test("<tool_call>\n<function=wait>\n<parameter=seconds> 5 </parameter>\n</function>\n</tool_call>")
      .errors([])
      .expect({ content: null, tool_calls: [{ name: "wait", arguments: { seconds: 5 } }] });
  });

  it("whitespace that is the value's own stays: one side only, several lines, the template's newlines", () => {
    const keeps = (text: string, value: string): void => {
      tester("qwen3-coder")
        .tools(EDIT)
        .test(`<tool_call>\n<function=edit>\n<parameter=old_string>${text}</parameter>\n</function>\n</tool_call>`)
        .errors([])
        .expect({ content: null, tool_calls: [{ name: "edit", arguments: { old_string: value } }] });
    };
    keeps("    return x\n", "    return x");
    keeps("    return x", "    return x");
    keeps(" if a: \n    b ", " if a: \n    b ");
    keeps("\n return x \n", " return x ");
    keeps(" return x \n", " return x ");
    keeps("   ", "   ");
  });

  it("a family without the tolerance keeps the padding", () => {
    tester("seed-oss")
      .tools(SHELL)
      .test("<seed:tool_call>\n<function=shell>\n<parameter=cmd> ls -lha </parameter>\n</function>\n</seed:tool_call>")
      .errors([])
      .expect({ content: null, tool_calls: [{ name: "shell", arguments: { cmd: " ls -lha " } }] });
  });
});
