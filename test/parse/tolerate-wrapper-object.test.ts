/**
 * The `wrapper-key` tolerance on llama3-json (vllm#11786), the object form: a call object wrapped in OpenAI's
 * tool-call shape, `{"type": "function", "function": {...}}`, is read as the call and the repair is
 * reported; the wrapper's final `}` may be missing at the end of the output, as a call object's may
 * (docs/parsing.md). One-shot and every split (the tester).
 */
import { describe, it } from "vitest";
import { stringTool } from "../helpers/string-tool.js";
import { tester } from "../helpers/tester.js";

const TRAFFIC = [stringTool("get_current_traffic", "location")];
const INNER = '{"name": "get_current_traffic", "parameters": {"location": "Sydney"}}';
const WANT = { content: null, tool_calls: [{ name: "get_current_traffic", arguments: { location: "Sydney" } }] };

describe("wrapper-key, the object form", () => {
  it("the vllm#11786 text (the wrapper's last brace missing at the end of the output), and closed", () => {
    for (const text of [`{"type": "function", "function": ${INNER}`, `{"type": "function", "function": ${INNER}}`]) {
      tester("llama3-json").tools(TRAFFIC).test(text).errors([{ type: "repaired", repair: "wrapper-key", name: "get_current_traffic", call: 0 }]).expect(WANT);
    }
  });

  it("what is not a wrapped call keeps its text", () => {
    // wrapper-key reads the object under "function" as the call only after the wrapper's own keys
    // ("type": "function"), as docs/formats.md says; an undeclared tool inside stays text.
    const undeclared = '{"type": "function", "function": {"name": "lookup", "parameters": {}}}';
    tester("llama3-json").tools(TRAFFIC).test(undeclared).errors([{ type: "unknown_tool", name: "lookup" }]).expect({ content: undeclared, tool_calls: [] });
  });

  it("a family without the tolerance reads no call from it", () => {
    const text = `{"type": "function", "function": ${INNER}}`;
    tester("hermes").tools(TRAFFIC).test(`<tool_call>\n${text}\n</tool_call>`).errors([{ type: "malformed" }]).expect({ content: `<tool_call>\n${text}\n</tool_call>`, tool_calls: [] });
  });
});
