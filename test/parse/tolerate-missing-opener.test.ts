/**
 * The `missing-opener` tolerance (hermes, ollama#13968): a JSON call object on its own line, written
 * without `<tool_call>` and followed by `</tool_call>`, is the call; the closer confirms it and is
 * reported as the repair. Without the closer, with text after the object, naming an undeclared tool or
 * inside reasoning, the text stays what it was. One-shot and every split (the tester).
 */
import { describe, it } from "vitest";
import { stringTool } from "../helpers/string-tool.js";
import { tester } from "../helpers/tester.js";

const SEARCH = [stringTool("search", "q")];
const CALL = '{"name": "search", "arguments": {"q": "relais"}}';

describe("missing-opener", () => {
  it("the ollama#13968 shape: a stray character, the object on its own line, then </tool_call>", () => {
    tester("hermes")
      .tools(SEARCH)
      .test(`侴\n${CALL}\n</tool_call>\n`)
      .errors([{ type: "repaired", repair: "missing-opener", name: "search", call: 0, text: "</tool_call>" }])
      .expect({ content: "侴", tool_calls: [{ name: "search", arguments: { q: "relais" } }] });
  });

  it("after a sentence, followed by a well-formed call", () => {
    tester("hermes")
      .tools(SEARCH)
      .test(`Searching.\n${CALL}</tool_call>\n<tool_call>\n${CALL}\n</tool_call>`)
      .errors([{ type: "repaired", repair: "missing-opener", call: 0 }])
      .expect({ content: "Searching.", tool_calls: [{ name: "search", arguments: { q: "relais" } }, { name: "search", arguments: { q: "relais" } }] });
  });

  it("without the closer, with text after the object, or naming another tool, it is content", () => {
    for (const text of [`Like this:\n${CALL}\nok`, `Like this:\n${CALL} and </tool_call>`, 'Like this:\n{"name": "lookup", "arguments": {}}\n</tool_call>', 'Data:\n{"answer": 1}\n</tool_call>']) {
      tester("hermes").tools(SEARCH).test(text).errors([]).expect({ content: text, tool_calls: [] });
    }
  });

  it("inside reasoning the object stays reasoning", () => {
    tester("hermes")
      .tools(SEARCH)
      .test(`<think>plan:\n${CALL}\n</tool_call></think>done`)
      .errors([])
      .expect({ reasoning_content: `plan:\n${CALL}\n</tool_call>`, content: "done", tool_calls: [] });
  });
});
