/**
 * Calls the peers' parser suites (fixtures/peer-cases) return and chatwire did not, minimised, each
 * checked one-shot and at every split (the tester). Expectations are the peer vector's calls; the text
 * that did not become a call is kept, with an error, as everywhere in chatwire.
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

describe("peer vector regressions", () => {
  it("olmo3: a line that is no call fails alone; the calls on later lines are still read", () => {
    // vLLM test_olmo3_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls (a bytes literal)
    tester("olmo3")
      .test("<function_calls>bad(x=b'z')\nget_weather(city='SF')</function_calls>")
      .errors([{ type: "malformed", name: "bad" }])
      .expect({ content: "bad(x=b'z')\n", tool_calls: [{ name: "get_weather", arguments: { city: "SF" } }] });
    tester("olmo3")
      .test("<function_calls>f(a=1)\nnot a call\ng()</function_calls>")
      .errors([{ type: "malformed" }])
      .expect({ content: "not a call\n", tool_calls: [{ name: "f", arguments: { a: 1 } }, { name: "g", arguments: {} }] });
  });

  it("olmo3: a region whose only line fails is kept whole, with one error", () => {
    tester("olmo3")
      .test("<function_calls>bad(x=b'z')\n</function_calls>")
      .errors([{ type: "malformed", name: "bad" }])
      .expect({ content: "<function_calls>bad(x=b'z')\n</function_calls>", tool_calls: [] });
  });

  it("minimax-m1: a line that is not JSON fails alone; the calls on later lines are still read", () => {
    // vLLM test_minimax_tool_parser.py::test_extract_tool_calls_invalid_json
    tester("minimax-m1")
      .test('<tool_calls>\n{"name": "a", "arguments": {"x": 1}}\n{invalid json here}\n{"name": "b", "arguments": {}}\n</tool_calls>')
      .errors([{ type: "malformed" }])
      .expect({ content: "{invalid json here}\n", tool_calls: [{ name: "a", arguments: { x: 1 } }, { name: "b", arguments: {} }] });
  });

  it("a number too large for JSON (1e999 reads as Infinity) makes the call invalid, its text kept", () => {
    // vLLM test_olmo3_tool_parser.py::test_non_finite_argument_rejected
    tester("olmo3")
      .test("<function_calls>calc(x=1e999)\ng()</function_calls>")
      .errors([{ type: "invalid_arguments", name: "calc" }])
      .expect({ content: "calc(x=1e999)", tool_calls: [{ name: "g", arguments: {} }] });
    tester("hermes")
      .test('<tool_call>\n{"name": "calc", "arguments": {"x": [-1e999]}}\n</tool_call>')
      .errors([{ type: "invalid_arguments", name: "calc" }])
      .expect({ content: '<tool_call>\n{"name": "calc", "arguments": {"x": [-1e999]}}\n</tool_call>', tool_calls: [] });
  });

  it("functiongemma: without a schema a quoted value that is JSON is read as JSON; with one the schema decides", () => {
    // vLLM test_functiongemma_tool_parser.py (TestParseArguments, request=None)
    tester("functiongemma")
      .test("<start_function_call>call:f{count:<escape>42<escape>,on:<escape>true<escape>,zip:<escape>03106<escape>}<end_function_call>")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { count: 42, on: true, zip: "03106" } }] });
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { count: { type: "string" } } } } }];
    tester("functiongemma")
      .tools(tools)
      .test("<start_function_call>call:f{count:<escape>42<escape>,n:<escape>7<escape>}<end_function_call>")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { count: "42", n: 7 } }] });
  });

  it("functiongemma: arguments may follow one another without a comma", () => {
    // vLLM test_functiongemma_tool_parser.py::TestExtractToolCallsStreaming
    tester("functiongemma")
      .test("<start_function_call>call:search{query:<escape>python<escape>limit:<escape>10<escape>sort:<escape>relevance<escape>}<end_function_call>")
      .expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "python", limit: 10, sort: "relevance" } }] });
  });

  it("minimax-m3: a repeated element inside an object value is a list of its values", () => {
    // vLLM test_minimax_m3_tool_parser.py::test_non_streaming_nested_tool_call (duplicate_demo)
    const NS = "]<]minimax[>[";
    tester("minimax-m3")
      .test(`${NS}<tool_call>\n${NS}<invoke name="f">${NS}<d>${NS}<tag>a${NS}</tag>${NS}<tag>b${NS}</tag>${NS}<one>1${NS}</one>${NS}</d>${NS}</invoke>\n${NS}</tool_call>`)
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { d: { tag: ["a", "b"], one: 1 } } }] });
  });

  it("hunyuan-v3: the tags without the checkpoint's :opensource suffix are read too", () => {
    // vLLM test_hy_v3_tool_parser.py writes them so
    tester("hunyuan-v3")
      .test("Checking.<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>\n</tool_calls>")
      .expect({ content: "Checking.", tool_calls: [{ name: "get_weather", arguments: { city: "Beijing" } }] });
  });

  it("minicpm5: tags holding the tokenizer's space mark (U+0120) are read", () => {
    // vLLM test_minicpm5xml_tool_parser.py::test_tokenizer_space_marker
    tester("minicpm5")
      .test('<function\u0120name="get_weather"><param\u0120name="city">上海</param></function>\n')
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { city: "上海" } }] });
  });

  it("qwen3-coder: in a bare <function=...> (no <tool_call>), </function> at the end of the output closes a value without </parameter>", () => {
    // SGLang test_qwen3_coder_detector/test_cases.py::test_implicit_parameter_close
    const tools = [{ type: "function", function: { name: "w", parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } } } }];
    tester("qwen3-coder")
      .tools(tools)
      .test("Text\n\n<function=w>\n<parameter=city>Paris\n<parameter=days>3\n</function>")
      .expect({ content: "Text\n\n", tool_calls: [{ name: "w", arguments: { city: "Paris", days: 3 } }] });
    // Cut off inside the value: still truncated, its text kept.
    tester("qwen3-coder")
      .tools(tools)
      .test("<function=w>\n<parameter=city>Par")
      .errors([{ type: "truncated", name: "w" }])
      .expect({ content: "<function=w>\n<parameter=city>Par", tool_calls: [] });
  });

  it("a typed raw value too large for a double stays the model's text (the schema check reports it)", () => {
    // SGLang test_nonfinite_coercion.py: 1e999 / [1e999] degrade to the raw string
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { n: { type: "number" }, a: { type: "array" } } } } }];
    tester("qwen3-coder")
      .tools(tools)
      .test("<tool_call>\n<function=f>\n<parameter=n>\n1e999\n</parameter>\n</function>\n</tool_call>")
      .errors([{ type: "invalid_arguments", name: "f" }])
      .expect({ content: "<tool_call>\n<function=f>\n<parameter=n>\n1e999\n</parameter>\n</function>\n</tool_call>", tool_calls: [] });
    tester("glm-4.5")
      .test("<tool_call>f<arg_key>a</arg_key><arg_value>[1e999]</arg_value></tool_call>")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { a: "[1e999]" } }] });
  });

  it("kimi-k3: the call head's attribute values are XML-unescaped (tool=\"a&amp;b\" names a&b)", () => {
    // SGLang test_kimik3_detector.py::test_attr_unescaping_and_raw_string_args (run without declared tools)
    tester("kimi-k3")
      .test('<|open|>tools<|sep|><|open|>call tool="a&amp;b" index="1"<|sep|><|open|>argument key="q" type="string"<|sep|>say &quot;hi&quot;<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>')
      .expect({ content: null, tool_calls: [{ name: "a&b", arguments: { q: "say &quot;hi&quot;" } }] });
  });

  it("pythonic / lfm2: a list item that is no call fails alone between end markers; later items are still read", () => {
    // vLLM test_llama4_pythonic_tool_parser.py / test_lfm2_tool_parser.py::test_bad_sibling_call_does_not_drop_good_calls
    tester("pythonic")
      .test("<|python_start|>[bad(x=b'z'), get_weather(city='LA')]<|python_end|>")
      .errors([{ type: "malformed", name: "bad" }])
      .expect({ content: "bad(x=b'z')", tool_calls: [{ name: "get_weather", arguments: { city: "LA" } }] });
    tester("lfm2")
      .test("<|tool_call_start|>[f(a=')', b=[1, 2]) junk, g(s=\"x,]\"), h()]<|tool_call_end|>")
      .errors([{ type: "malformed" }])
      .expect({ content: "junk", tool_calls: [{ name: "f", arguments: { a: ")", b: [1, 2] } }, { name: "g", arguments: { s: "x,]" } }, { name: "h", arguments: {} }] });
  });

  it("pythonic: a bare list (no end marker) that goes wrong is still prose, whole", () => {
    tester("pythonic")
      .test("[bad(x=b'z'), get_weather(city='LA')]")
      .errors([{ type: "malformed", name: "bad" }])
      .expect({ content: "[bad(x=b'z'), get_weather(city='LA')]", tool_calls: [] });
  });

  it("command-r7b: call objects in an array without the comma between them are both read", () => {
    // Ollama model/parsers/cohere_test.go::TestCohereParseMalformedActions (missing comma)
    tester("command-r7b")
      .test('<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "a", "parameters": {}}{"tool_call_id": "1", "tool_name": "b", "parameters": {"x": "{not json}"}}]<|END_ACTION|>')
      .expect({ content: null, tool_calls: [{ name: "a", arguments: {} }, { name: "b", arguments: { x: "{not json}" } }] });
  });

  it("command-r-plus: the template's directly-answer pseudo-tool is no call; with arguments, or declared by the request, it is one", () => {
    // Ollama model/parsers/commandr_test.go::TestCommandRParser_DirectlyAnswer
    const action = (body: string): string => "Action: ```json\n" + body + "\n```";
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object" } } }];
    tester("command-r-plus")
      .tools(tools)
      .test(action('[{"tool_name": "directly-answer", "parameters": {}}]'))
      .expect({ content: "", tool_calls: [] });
    tester("command-r-plus")
      .tools(tools)
      .test(action('[{"tool_name": "directly-answer", "parameters": {"x": "words"}}]'))
      .errors([{ type: "unknown_tool", name: "directly-answer" }])
      .expect({ content: action('[{"tool_name": "directly-answer", "parameters": {"x": "words"}}]'), tool_calls: [] });
    tester("command-r-plus")
      .tools([{ type: "function", function: { name: "directly-answer", parameters: { type: "object" } } }])
      .test(action('[{"tool_name": "directly-answer", "parameters": {}}]'))
      .expect({ content: null, tool_calls: [{ name: "directly-answer", arguments: {} }] });
  });

  it("harmony: the recipient may stand in the role's place (to=functions.f<|channel|>commentary)", () => {
    // Ollama harmony/harmonyparser_test.go::TestHeaderParsing ("role is replaced by the recipient")
    tester("harmony")
      .test('<|start|>to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"location":"SF"}<|call|>')
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { location: "SF" } }] });
  });

  it("glm-4.5: <arg_key>k</arg_key><arg_value> inside a value whose </arg_value> is missing starts the next parameter", () => {
    // Ollama model/parsers/glm46_test.go::TestGLM46ToolCallParsing ("unclosed arg_value before next arg_key")
    tester("glm-4.5")
      .test("<tool_call>get-weather\n<arg_key>city</arg_key>\n<arg_value>Paris<arg_key>unit</arg_key>\n<arg_value>celsius</arg_value></tool_call>")
      .expect({ content: null, tool_calls: [{ name: "get-weather", arguments: { city: "Paris", unit: "celsius" } }] });
    // Without the value tag after it, an <arg_key> element is the value's text.
    tester("glm-4.5")
      .test("<tool_call>f<arg_key>a</arg_key><arg_value>see <arg_key>k</arg_key> here</arg_value></tool_call>")
      .expect({ content: null, tool_calls: [{ name: "f", arguments: { a: "see <arg_key>k</arg_key> here" } }] });
  });

  it("deepseek-r1: whitespace around the function name is not part of the name", () => {
    // Ollama model/parsers/cogito_test.go::TestCogitoParser_parseToolCallContent ("tool_with_spaces_in_name")
    const call = "<｜tool▁call▁begin｜>function<｜tool▁sep｜>  get_weather  \n```json\n{\"location\":\"Paris\"}\n```<｜tool▁call▁end｜>";
    tester("deepseek-r1")
      .test(`<｜tool▁calls▁begin｜>${call}<｜tool▁calls▁end｜>`)
      .expect({ content: null, tool_calls: [{ name: "get_weather", arguments: { location: "Paris" } }] });
  });

  it("apertus: the turn's opening <|assistant_start|> carries no text", () => {
    // Ollama model/parsers/apertus15_test.go::TestApertus15ParserEveryByteBoundary
    tester("apertus")
      .test('<|assistant_start|>Answer.<|tools_prefix|>[{"lookup":{"id":"42"}}]<|tools_suffix|><|assistant_end|>')
      .expect({ content: "Answer.", tool_calls: [{ name: "lookup", arguments: { id: "42" } }] });
  });

  it("kimi-k2: a call whose <|tool_call_end|> is missing ends where the next call begins", () => {
    // llama.cpp tests/test-chat.cpp, Kimi-K2-Thinking ("call inside thinking block and without section markers or end markers")
    const call = (name: string, i: number, args: string) => `<|tool_call_begin|>functions.${name}:${i}<|tool_call_argument_begin|>${args}`;
    tester("kimi-k2")
      .test(`<think>I need two${call("a", 0, '{"x": 1}')}${call("b", 1, '{"y": "z"}')}`)
      .expect({ content: null, reasoning_content: "I need two", tool_calls: [{ name: "a", arguments: { x: 1 }, id: "functions.a:0" }, { name: "b", arguments: { y: "z" }, id: "functions.b:1" }] });
    // Inside a section too; the section's markers stay protocol.
    tester("kimi-k2")
      .test(`<|tool_calls_section_begin|>${call("a", 0, "{}")}${call("b", 1, "{}")}<|tool_call_end|><|tool_calls_section_end|>`)
      .expect({ content: null, tool_calls: [{ name: "a", arguments: {}, id: "functions.a:0" }, { name: "b", arguments: {}, id: "functions.b:1" }] });
    // The start marker inside a JSON string is the string's text.
    tester("kimi-k2")
      .test(`${call("a", 0, '{"x": "<|tool_call_begin|>"}')}<|tool_call_end|>`)
      .expect({ content: null, tool_calls: [{ name: "a", arguments: { x: "<|tool_call_begin|>" }, id: "functions.a:0" }] });
    // A call cut off by the next one is not returned; its text stays, the next call is read.
    tester("kimi-k2")
      .test(`${call("a", 0, '{"x": ')}${call("b", 1, "{}")}<|tool_call_end|>`)
      .errors([{ type: "truncated" }])
      .expect({ content: `${call("a", 0, '{"x": ')}`, tool_calls: [{ name: "b", arguments: {}, id: "functions.b:1" }] });
  });
});
