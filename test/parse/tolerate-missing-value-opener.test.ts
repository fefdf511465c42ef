/**
 * The `missing-value-opener` tolerance (issue 18, kind 2): GLM `<arg_key>k</arg_key>v</arg_value>`, the
 * value's open tag left out and its close tag present, reads `v` as the value and reports the repair.
 * One-shot and every split (the tester); a call that then does not validate is not repaired.
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const SEARCH = [{ type: "function", function: { name: "search", parameters: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"], additionalProperties: false } } }];

describe("missing-value-opener", () => {
  it("glm-4.5: the call vLLM#49248 captured (logprobs) reads as the model meant it", () => {
    tester("glm-4.5")
      .tools(SEARCH)
      .test("<tool_call>search<arg_key>query</arg_key>how many vacation days left</arg_value></tool_call>")
      .errors([{ type: "repaired", repair: "missing-value-opener", name: "search", call: 0, text: "</arg_value>" }])
      .expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "how many vacation days left" } }] });
  });

  it("one value without its opener among well-formed ones, typed by the schema like the others", () => {
    tester("glm-4.5")
      .tools(SEARCH)
      .test("Looking.\n<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>days left</arg_value>\n<arg_key>limit</arg_key>\n5</arg_value>\n</tool_call>")
      .errors([{ type: "repaired", repair: "missing-value-opener", call: 0 }])
      .expect({ content: "Looking.\n", tool_calls: [{ name: "search", arguments: { query: "days left", limit: 5 } }] });
  });

  it("a repaired call that does not validate is no call: its text stays, with its error and no repair", () => {
    tester("glm-4.5")
      .tools(SEARCH)
      .test("<tool_call>search<arg_key>q</arg_key>days</arg_value></tool_call>")
      .errors([{ type: "invalid_arguments", name: "search" }])
      .expect({ content: "<tool_call>search<arg_key>q</arg_key>days</arg_value></tool_call>", tool_calls: [] });
    tester("glm-4.5")
      .tools(SEARCH)
      .test("<tool_call>lookup<arg_key>query</arg_key>days</arg_value></tool_call>")
      .errors([{ type: "unknown_tool", name: "lookup" }])
      .expect({ content: "<tool_call>lookup<arg_key>query</arg_key>days</arg_value></tool_call>", tool_calls: [] });
  });

  it("a value with neither tag is not delimited: the call stays malformed", () => {
    tester("glm-4.5")
      .tools(SEARCH)
      .test("<tool_call>search<arg_key>query</arg_key>days</tool_call>")
      .errors([{ type: "malformed", name: "search" }])
      .expect({ content: "<tool_call>search<arg_key>query</arg_key>days</tool_call>", tool_calls: [] });
  });

  it("a tag where the value's opener belongs is still an error", () => {
    tester("glm-4.5")
      .tools(SEARCH)
      .test("<tool_call>search<arg_key>query</arg_key><b>days</b></arg_value></tool_call>")
      .errors([{ type: "malformed", name: "search" }])
      .expect({ content: "<tool_call>search<arg_key>query</arg_key><b>days</b></arg_value></tool_call>", tool_calls: [] });
  });
});
