/**
 * The markup repairs of the wild set (issue 18): `misspelled-closer` and `missing-name-prefix`
 * (FunctionGemma), `missing-key-opener` (GLM), `argument-list` (Gemma 4), `tag-alias` (Seed-OSS). Each
 * reads the real completion as the model meant it and reports the repair, one-shot and at every split
 * (the tester); each leaves text that is not unambiguous (an undeclared tool, a key no tool declares,
 * two readings) as it was, and a repaired call that does not validate is no call and no repair.
 */
import { describe, expect, it } from "vitest";
import { tester } from "../helpers/tester.js";
import { parseStreamed } from "../helpers/run-parse.js";
import { listFormats } from "../../src/formats/index.js";
import { compileFormat } from "../../src/parse/compile-format.js";
import type { FormatDescription, Tolerance } from "../../src/parse/language.js";

const fn = (name: string, properties: Record<string, unknown>, required: string[] = []) => ({ type: "function", function: { name, parameters: { type: "object", properties, required } } });
const STR = { type: "string" };

describe("misspelled-closer and missing-name-prefix (functiongemma)", () => {
  const TOOLS = [fn("get_financial_overview", {}), fn("get_weather", { city: STR }, ["city"])];

  it("flutter_gemma#238: `<start_function_call>f{}</end_function_call>` is the call, both repairs reported", () => {
    tester("functiongemma")
      .tools(TOOLS)
      .test("<start_function_call>get_financial_overview{}</end_function_call>")
      .errors([
        { type: "repaired", repair: "missing-name-prefix", name: "get_financial_overview", call: 0, text: "get_financial_overview" },
        { type: "repaired", repair: "misspelled-closer", name: "get_financial_overview", call: 0, text: "</end_function_call>" },
      ])
      .expect({ content: null, tool_calls: [{ name: "get_financial_overview", arguments: {} }] });
  });

  it("each on its own, with text around the call", () => {
    tester("functiongemma")
      .tools(TOOLS)
      .test("Checking.<start_function_call>call:get_weather{city:<escape>Oslo<escape>}</end_function_call> Done.")
      .errors([{ type: "repaired", repair: "misspelled-closer", call: 0 }])
      .expect({ content: "Checking. Done.", tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
    tester("functiongemma")
      .tools(TOOLS)
      .test("<start_function_call>get_weather{city:<escape>Oslo<escape>}<end_function_call>")
      .errors([{ type: "repaired", repair: "missing-name-prefix", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("no valid call: the misspelled closer stays in the text, with the call's own error and no repair", () => {
    const text = "<start_function_call>lookup{}</end_function_call>";
    tester("functiongemma").tools(TOOLS).test(text).errors([{ type: "unknown_tool", name: "lookup" }]).expect({ content: text, tool_calls: [] });
    const bad = "<start_function_call>get_weather{}</end_function_call>";
    tester("functiongemma").tools(TOOLS).test(bad).errors([{ type: "invalid_arguments", name: "get_weather" }]).expect({ content: bad, tool_calls: [] });
  });
});

describe("missing-name-prefix with `instead` (gemma4)", () => {
  const TOOLS = [fn("search_files", { pattern: STR, target: STR }, ["pattern"])];

  it("vLLM#53431: `<|tool_call>:f{...}`, only the `:` of `call:` written", () => {
    tester("gemma4")
      .tools(TOOLS)
      .test('<|tool_call>:search_files{pattern:<|"|>.env.example<|"|>,target:<|"|>files<|"|>}<tool_call|>')
      .errors([{ type: "repaired", repair: "missing-name-prefix", name: "search_files", call: 0, text: ":search_files" }])
      .expect({ content: null, tool_calls: [{ name: "search_files", arguments: { pattern: ".env.example", target: "files" } }] });
  });

  it("gemma4 does not tolerate the prefix left out entirely, nor `-` for it: the text stays", () => {
    for (const text of ['<|tool_call>search_files{pattern:<|"|>x<|"|>}<tool_call|>', '<|tool_call>- search_files{pattern:<|"|>x<|"|>}<tool_call|>']) {
      tester("gemma4").tools(TOOLS).test(text).errors([{ type: "malformed" }]).expect({ content: text, tool_calls: [] });
    }
  });
});

describe("missing-key-opener (glm-4.5)", () => {
  const SHELL = [fn("send_command_to_shell", { command: STR }, ["command"])];

  it("vLLM#47190: the key run into the name is split off against the declared tool", () => {
    tester("glm-4.5")
      .tools(SHELL)
      .test("<tool_call>send_command_to_shellcommand</arg_key><arg_value>echo test</arg_value></tool_call>")
      .errors([{ type: "repaired", repair: "missing-key-opener", name: "send_command_to_shell", call: 0, text: "send_command_to_shellcommand" }])
      .expect({ content: null, tool_calls: [{ name: "send_command_to_shell", arguments: { command: "echo test" } }] });
  });

  it("with a space between them, and further well-formed parameters", () => {
    tester("glm-4.5")
      .tools([fn("browser_action", { task: STR, tab: { type: "integer" } })])
      .test("<tool_call>browser_action task</arg_key><arg_value>open it</arg_value><arg_key>tab</arg_key><arg_value>2</arg_value></tool_call>")
      .errors([{ type: "repaired", repair: "missing-key-opener", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "browser_action", arguments: { task: "open it", tab: 2 } }] });
  });

  it("no tool declares the key, two splits read, no tools declared: no repair, the text stays", () => {
    const text = "<tool_call>send_command_to_shellcmd</arg_key><arg_value>ls</arg_value></tool_call>";
    tester("glm-4.5").tools(SHELL).test(text).errors([{ type: "unknown_tool" }]).expect({ content: text, tool_calls: [] });
    // `read` + `file_path` and `read_file` + `path`: two readings, none chosen.
    const two = [fn("read", { file_path: STR }), fn("read_file", { path: STR })];
    const ambiguous = "<tool_call>read_file_path</arg_key><arg_value>a.txt</arg_value></tool_call>";
    tester("glm-4.5").tools(two).test(ambiguous).errors([{ type: "unknown_tool" }]).expect({ content: ambiguous, tool_calls: [] });
    tester("glm-4.5").tools(null).test(text).errors([{ type: "malformed" }]).expect({ content: text, tool_calls: [] });
  });

  it("an accepted name is read at once, as without the tolerance: its call opens when its tag starts", () => {
    const spec = { format: "glm-4.5", request: { tools: SHELL } };
    // (`<` alone may still be the region's `</tool_call>`: the engine holds it, tolerance or not.)
    const run = parseStreamed(spec, ["<tool_call>send_command_to_shell", "<a", "rg_key>command</arg_key><arg_value>ls</arg_value></tool_call>"]);
    expect(run.perPush[1]!.some((d) => d.tool_calls?.[0]?.function?.name === "send_command_to_shell")).toBe(true);
  });
});

describe("argument-list (gemma4)", () => {
  const TOOLS = [fn("get_weather", { city: STR, unit: STR }, ["city"]), fn("terminal", { command: STR }, ["command"])];

  it("vllm-mlx#622: Python keywords in round brackets, without the closer", () => {
    tester("gemma4")
      .tools(TOOLS)
      .test('<|tool_call>call:get_weather(city="Tokyo", unit="celsius")')
      .errors([{ type: "repaired", repair: "argument-list", name: "get_weather", call: 0, text: "(" }])
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Tokyo", unit: "celsius" } }] });
  });

  it('vLLM#53642: Gemma\'s own `k:<|"|>v<|"|>` in round brackets, beside a canonical call', () => {
    tester("gemma4")
      .tools(TOOLS)
      .test('<|tool_call>call:terminal(command:<|"|>ls -a<|"|>)<tool_call|><|tool_call>call:get_weather{city:<|"|>Oslo<|"|>}<tool_call|>')
      .errors([{ type: "repaired", repair: "argument-list", name: "terminal", call: 0 }])
      .expect({ content: null, tool_calls: [{ name: "terminal", arguments: { command: "ls -a" } }, { name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("an undeclared tool or invalid arguments: no call, no repair", () => {
    const text = '<|tool_call>call:lookup(q="x")<tool_call|>';
    tester("gemma4").tools(TOOLS).test(text).errors([{ type: "unknown_tool", name: "lookup" }]).expect({ content: text, tool_calls: [] });
    const bad = '<|tool_call>call:get_weather(unit="c")<tool_call|>';
    tester("gemma4").tools(TOOLS).test(bad).errors([{ type: "invalid_arguments", name: "get_weather" }]).expect({ content: bad, tool_calls: [] });
  });
});

describe("tag-alias (seed-oss)", () => {
  const EXEC = [fn("exec", { command: STR, count: { type: "integer" } }, ["command"])];

  it("picoclaw#3153: DSML's attribute tags inside <seed:tool_call>, one repair per call", () => {
    tester("seed-oss")
      .tools(EXEC)
      .test('<seed:tool_call>\n  <function name="exec">\n    <parameter name="command" string="true">ls -la</parameter>\n    <parameter name="count" string="false">3</parameter>\n  </function>\n</seed:tool_call>')
      .errors([{ type: "repaired", repair: "tag-alias", name: "exec", call: 0, text: '<function name="exec">' }])
      .expect({ content: null, tool_calls: [{ name: "exec", arguments: { command: "ls -la", count: 3 } }] });
  });

  it("an aliased parameter in a canonical call is the repair's text", () => {
    tester("seed-oss")
      .tools(EXEC)
      .test('<seed:tool_call>\n<function=exec>\n<parameter name="command">pwd</parameter>\n</function>\n</seed:tool_call>')
      .errors([{ type: "repaired", repair: "tag-alias", call: 0, text: '<parameter name="command">' }])
      .expect({ content: null, tool_calls: [{ name: "exec", arguments: { command: "pwd" } }] });
  });

  it("an aliased call to an undeclared tool stays text, without a repair", () => {
    const text = '<seed:tool_call>\n<function name="shell">\n<parameter name="command">pwd</parameter>\n</function>\n</seed:tool_call>';
    tester("seed-oss").tools(EXEC).test(text).errors([{ type: "unknown_tool", name: "shell" }]).expect({ content: text, tool_calls: [] });
  });
});

describe("the markup repair entries are checked against the family", () => {
  const probe = (id: string, t: unknown) => () => {
    const base = listFormats().find((f) => f.id === id)!;
    return compileFormat({ ...base, id: "probe", tolerate: [t as Tolerance] } as FormatDescription);
  };
  const evidence = "https://example.org/completion";
  it("names what does not fit", () => {
    expect(probe("functiongemma", { kind: "misspelled-closer", region: "<nope>", closer: ["</x>"], evidence })).toThrow(/no region's start marker/);
    expect(probe("functiongemma", { kind: "misspelled-closer", region: "<start_function_call>", closer: ["<end_function_call>"], evidence })).toThrow(/other than the region's own/);
    expect(probe("functiongemma", { kind: "missing-name-prefix", prefix: "fn:", evidence })).toThrow(/no name prefix/);
    expect(probe("functiongemma", { kind: "missing-name-prefix", prefix: "call:", instead: ["x:"], evidence })).toThrow(/shorter end of it/);
    expect(probe("glm-4.5", { kind: "missing-key-opener", open: "<arg_value>", evidence })).toThrow(/no key open tag/);
    expect(probe("gemma4", { kind: "argument-list", dialect: "gemma", open: "(", close: ")", assign: ["=>"], evidence })).toThrow(/one character/);
    expect(probe("gemma4", { kind: "argument-list", dialect: "gemma", open: "{", close: "}", assign: ["="], evidence })).toThrow(/the dialect's own/);
    expect(probe("seed-oss", { kind: "tag-alias", call: ["<function>"], param: [], evidence })).toThrow(/\{name\} hole/);
    expect(probe("hermes", { kind: "tag-alias", call: ['<function name="{name}">'], param: [], evidence })).toThrow(/no tagged calls/);
  });
});
