/**
 * pythonic: Llama 3.2 / Llama 4 pythonic tool calls. Each case runs one-shot, code point by code point
 * and at random cuts. (No corpus template renders this syntax, so there is no reconstruction here.)
 */
import { describe, it } from "vitest";
import { tester } from "../helpers/tester.js";

const TOOLS = [
  {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] }, days: { type: "integer" } }, required: ["city"] } },
  },
  {
    type: "function",
    function: {
      name: "register_user",
      parameters: {
        type: "object",
        properties: { name: { type: "string" }, age: { type: "integer" }, address: { type: "object" }, role: { type: ["string", "null"] }, passed_test: { type: "boolean" }, aliases: { type: "array" } },
        required: ["name"],
      },
    },
  },
  { type: "function", function: { name: "run_code", parameters: { type: "object", properties: { code: { type: "string" } }, required: ["code"] } } },
  { type: "function", function: { name: "ping", parameters: { type: "object", properties: {} } } },
];

const t = tester("pythonic").tools(TOOLS);

describe("pythonic completions", () => {
  it("parallel calls, unicode, both quote styles", () => {
    t.test(`[get_weather(city='São Paulo', unit="c"), get_weather(city="東京", days=3)]`).expect({
      content: null,
      tool_calls: [
        { name: "get_weather", arguments: { city: "São Paulo", unit: "c" }, arguments_text: '{"city": "São Paulo", "unit": "c"}' },
        { name: "get_weather", arguments: { city: "東京", days: 3 } },
      ],
    });
  });

  it("Python literals: True, None, dicts, lists, tuples", () => {
    t.test("[register_user(name='John Doe', age=37, address={'city': 'San Francisco', 'zip': '94016'}, role=None, passed_test=True, aliases=('John', 'Johnny'))]").expect({
      content: null,
      tool_calls: [{ name: "register_user", arguments: { name: "John Doe", age: 37, address: { city: "San Francisco", zip: "94016" }, role: null, passed_test: true, aliases: ["John", "Johnny"] } }],
    });
  });

  it("text before and after, and prose with brackets that is not a call", () => {
    t.test("See [1] and [note(s)] for details: [get_weather(city='Oslo')] Here's the forecast [soon].").expect({
      content: "See [1] and [note(s)] for details:  Here's the forecast [soon].",
      tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }],
    });
  });

  it("Llama 4: <|python_start|> wrapper, a code argument with escapes and a triple-quoted string", () => {
    t.test(`<|python_start|>[run_code(code="print('hi')\\nx = \\"</parameter>\\""), run_code(code='''for i in range(3):\n    print(i)''')]<|python_end|>`).expect({
      content: null,
      tool_calls: [
        { name: "run_code", arguments: { code: "print('hi')\nx = \"</parameter>\"" } },
        { name: "run_code", arguments: { code: "for i in range(3):\n    print(i)" } },
      ],
    });
  });

  it("no arguments, and the end-of-turn token", () => {
    t.test("[ping()]<|eot_id|>").expect({ content: null, tool_calls: [{ name: "ping", arguments: {}, arguments_text: "{}" }] });
  });

  it("a broken second call keeps the first, and its text stays", () => {
    t.test("[get_weather(city='SF'), register_user(name='x 'y')]")
      .errors([{ type: "malformed", name: "register_user" }])
      .expect({ content: "register_user(name='x 'y')]", tool_calls: [{ name: "get_weather", arguments: { city: "SF" } }] });
  });

  it("a wrong type fails validation (literals are not retyped)", () => {
    t.test("[get_weather(city='Rome', days='3')]").errors([{ type: "invalid_arguments", name: "get_weather" }]).expect({ content: "[get_weather(city='Rome', days='3')]" });
  });
});
