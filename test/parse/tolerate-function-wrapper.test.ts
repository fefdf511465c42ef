/**
 * The `function-wrapper` tolerance (llama3-json, vllm#11786): a call object wrapped in OpenAI's
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

describe("function-wrapper", () => {
  it("the vllm#11786 text (the wrapper's last brace missing at the end of the output), and closed", () => {
    for (const text of [`{"type": "function", "function": ${INNER}`, `{"type": "function", "function": ${INNER}}`, `{"function": ${INNER}, "type": "function"}`]) {
      tester("llama3-json").tools(TRAFFIC).test(text).errors([{ type: "repaired", repair: "function-wrapper", name: "get_current_traffic", call: 0, text: '"function"' }]).expect(WANT);
    }
  });

  it("what is not a wrapped call keeps its text", () => {
    // A second object under the key after the call was read, or text after the wrapper.
    const twice = `{"type": "function", "function": ${INNER}, "function": ${INNER}}`;
    tester("llama3-json").tools(TRAFFIC).test(twice).errors([{ type: "malformed", name: "get_current_traffic" }]).expect({ content: twice, tool_calls: [] });
    const undeclared = '{"type": "function", "function": {"name": "lookup", "parameters": {}}}';
    tester("llama3-json").tools(TRAFFIC).test(undeclared).errors([{ type: "unknown_tool", name: "lookup" }]).expect({ content: undeclared, tool_calls: [] });
  });

  it("a family without the tolerance reads no call from it", () => {
    const text = `{"type": "function", "function": ${INNER}}`;
    tester("hermes").tools(TRAFFIC).test(`<tool_call>\n${text}\n</tool_call>`).errors([{ type: "malformed" }]).expect({ content: `<tool_call>\n${text}\n</tool_call>`, tool_calls: [] });
  });
});
