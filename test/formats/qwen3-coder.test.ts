/**
 * qwen3-coder: Qwen3-Coder, Qwen3.5, Nemotron 3 Nano, Step-3.5. Each case runs one-shot, code point by
 * code point and at random cuts (test/helpers/tester.ts); the reconstruction renders calls through the
 * real templates and parses them back.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parsedCalls, reconstruct, RECON_CALLS } from "./reconstruct-turn.js";

const TOOLS = [
  {
    type: "function",
    function: {
      name: "write_file",
      parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" }, mode: { type: "integer" } }, required: ["path", "content"] },
    },
  },
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] }, days: { type: "integer" }, hourly: { type: "boolean" } },
        required: ["city"],
      },
    },
  },
  {
    type: "function",
    function: { name: "todo", parameters: { type: "object", properties: { items: { type: "array", items: { type: "object" } }, zip: { type: "string" } } } },
  },
];

const t = tester("qwen3-coder").tools(TOOLS);

describe("qwen3-coder completions", () => {
  it("text before, two parallel calls, unicode and typed values", () => {
    t.test(
      "Let me check both cities.\n<tool_call>\n<function=get_weather>\n<parameter=city>\n深圳\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=hourly>\ntrue\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_weather>\n<parameter=city>\nZürich 🇨🇭\n</parameter>\n<parameter=unit>\ncelsius\n</parameter>\n</function>\n</tool_call>",
    ).expect({
      content: "Let me check both cities.\n",
      tool_calls: [
        { name: "get_weather", arguments: { city: "深圳", days: 3, hourly: true }, arguments_text: '{"city": "深圳", "days": 3, "hourly": true}' },
        { name: "get_weather", arguments: { city: "Zürich 🇨🇭", unit: "celsius" } },
      ],
    });
  });

  it("a code value that contains closing-tag and parameter-tag text", () => {
    const code = "<config>\n  <parameter=x>y</parameter>\n</config>\nprint('</parameter>')\n</function> is text here";
    t.test(`<tool_call>\n<function=write_file>\n<parameter=path>\nconf.xml\n</parameter>\n<parameter=content>\n${code}\n</parameter>\n</function>\n</tool_call>`).expect({
      content: null,
      tool_calls: [{ name: "write_file", arguments: { path: "conf.xml", content: code } }],
    });
  });

  it("Qwen3.5: the prompt opened <think>, reasoning then a call, then text after it", () => {
    t.promptSuffix("<|im_start|>assistant\n<think>\n")
      .test("The user wants a file.\n</think>\n\n<tool_call>\n<function=write_file>\n<parameter=path>\nnotes/日本.md\n</parameter>\n<parameter=content>\n# Title\n\n- item\n</parameter>\n</function>\n</tool_call>\nDone.")
      .expect({
        content: "\nDone.",
        reasoning_content: "The user wants a file.\n",
        tool_calls: [{ name: "write_file", arguments: { path: "notes/日本.md", content: "# Title\n\n- item" } }],
      });
  });

  it("a string that looks like a number stays a string; arrays of objects are JSON", () => {
    t.test('<tool_call>\n<function=todo>\n<parameter=zip>\n03106\n</parameter>\n<parameter=items>\n[{"task": "a", "done": false}, {"task": "b"}]\n</parameter>\n</function>\n</tool_call>').expect({
      content: null,
      tool_calls: [{ name: "todo", arguments: { zip: "03106", items: [{ task: "a", done: false }, { task: "b" }] } }],
    });
  });

  it("Qwen3.5 without <tool_call>: a bare <function= block, text after it", () => {
    t.test("<function=get_weather>\n<parameter=city>\nOslo\n</parameter>\n</function>\nI'll report back.").expect({
      content: "\nI'll report back.",
      tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }],
    });
  });

  it("prose that mentions <function=...> is content, without an error, and a later call is still read", () => {
    t.test("To call it, write <function=get_weather> with parameters.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nBern\n</parameter>\n</function>\n</tool_call>").expect({
      content: "To call it, write <function=get_weather> with parameters.\n",
      tool_calls: [{ name: "get_weather", arguments: { city: "Bern" } }],
    });
  });

  it("a missing </parameter> is ended by the next <parameter=", () => {
    t.test("<tool_call>\n<function=get_weather>\n<parameter=city>\nDallas\n<parameter=days>\n2\n</parameter>\n</function>\n</tool_call>").expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Dallas", days: 2 } }],
    });
  });

  it("the Hermes JSON form inside <tool_call> is read too", () => {
    t.test('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Lima"}}\n</tool_call>').expect({
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Lima" } }],
    });
  });

  it("an undeclared tool is not a call: its text stays, with an error", () => {
    const raw = "<tool_call>\n<function=delete_all>\n<parameter=force>\ntrue\n</parameter>\n</function>\n</tool_call>";
    t.test(`Sure.\n${raw}`).errors([{ type: "unknown_tool", name: "delete_all" }]).expect({ content: `Sure.\n${raw}` });
  });

  it("a value outside the enum fails validation; the valid sibling call stays", () => {
    const bad = "<tool_call>\n<function=get_weather>\n<parameter=city>\nRome\n</parameter>\n<parameter=unit>\nkelvin\n</parameter>\n</function>\n</tool_call>";
    t.test(`<tool_call>\n<function=get_weather>\n<parameter=city>\nNice\n</parameter>\n</function>\n</tool_call>\n${bad}`)
      .errors([{ type: "invalid_arguments", name: "get_weather" }])
      .expect({ content: `\n${bad}`, tool_calls: [{ name: "get_weather", arguments: { city: "Nice" } }] });
  });

  it("a call cut off by the end of the output is reported as truncated, its text kept", () => {
    const raw = "<tool_call>\n<function=write_file>\n<parameter=path>\na.py\n</parameter>\n<parameter=content>\nimport os\n";
    t.test(raw).errors([{ type: "truncated", name: "write_file" }]).expect({ content: raw });
  });
});

describe("qwen3-coder reconstruction through the real templates", () => {
  for (const file of ["Qwen3-Coder.jinja", "Qwen3.5-4B.jinja", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja", "StepFun3.5-Flash.jinja", "stepfun-ai-Step-3.5-Flash.jinja"]) {
    it(file, async () => {
      const r = await reconstruct(file);
      expect(r.format).toBe("qwen3-coder");
      expect(parsedCalls(r.result)).toEqual(RECON_CALLS);
      expect(r.result.errors).toEqual([]);
    });
  }
});
