/**
 * tagged-pythonic: Python calls in `<tool_call>` tags, several wrapped in `<TOOL_BEGIN>...<TOOL_END>`,
 * as agent frameworks prompt for them. Each case runs one-shot, code point by code point and at random
 * cuts. (No corpus template: the syntax comes from agent prompts, not from a model's template.)
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const TOOLS = [
  { type: "function", function: { name: "browser_use", parameters: { type: "object", properties: { action: { type: "string" }, url: { type: "string" }, index: { type: "integer" } }, required: ["action"] } } },
  { type: "function", function: { name: "python_execute", parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] } } },
  { type: "function", function: { name: "terminate", parameters: { type: "object", properties: { status: { type: "string", enum: ["success", "failure"] } }, required: ["status"] } } },
];

const t = tester("tagged-pythonic").tools(TOOLS);

describe("tagged-pythonic completions", () => {
  it("one call", () => {
    t.test('<tool_call>browser_use(action="go_to_url", url="https://example.com")</tool_call>').expect({
      content: null,
      tool_calls: [{ name: "browser_use", arguments: { action: "go_to_url", url: "https://example.com" } }],
    });
  });

  it("text before, two calls wrapped in TOOL_BEGIN/TOOL_END", () => {
    t.test('I will open the page and click.\n<TOOL_BEGIN>\n<tool_call>browser_use(action="go_to_url", url="https://例え.jp")</tool_call>\n<tool_call>browser_use(action="click_element", index=3)</tool_call>\n<TOOL_END>').expect({
      content: "I will open the page and click.\n",
      tool_calls: [
        { name: "browser_use", arguments: { action: "go_to_url", url: "https://例え.jp" } },
        { name: "browser_use", arguments: { action: "click_element", index: 3 } },
      ],
    });
  });

  it("a code argument with newlines, quotes and tags", () => {
    t.test(`<tool_call>python_execute(code='import re\\nprint(re.sub(r"<[^>]+>", "", "<b>x</b>"))\\n')</tool_call>`).expect({
      content: null,
      tool_calls: [{ name: "python_execute", arguments: { code: 'import re\nprint(re.sub(r"<[^>]+>", "", "<b>x</b>"))\n' } }],
    });
  });

  it("reasoning, then a call, then text", () => {
    t.test('<think>Task is done.</think><tool_call>terminate(status="success")</tool_call>\nAll done ✅').expect({
      content: "\nAll done ✅",
      reasoning_content: "Task is done.",
      tool_calls: [{ name: "terminate", arguments: { status: "success" } }],
    });
  });

  it("a plain answer, and a bad enum value kept as text", () => {
    t.test("Nothing to do.").expect({ content: "Nothing to do." });
    const raw = '<tool_call>terminate(status="maybe")</tool_call>';
    t.test(raw).errors([{ type: "invalid_arguments", name: "terminate" }]).expect({ content: raw });
  });
});
