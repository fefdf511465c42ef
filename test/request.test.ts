import { describe, expect, it } from "vitest";
import { ChatwireError } from "../src/errors.js";
import { PyFloat } from "../src/jinja/py-float.js";
import { normalizeRequest, readJson, readSharedJson, type TemplateInfo } from "../src/request/index.js";

const plain = { readsContentParts: false, knowsDeveloperRole: false };
const rich = { readsContentParts: true, knowsDeveloperRole: true };

/** The ChatwireError a call throws (fails the test when it does not throw one). */
function errorOf(fn: () => unknown): ChatwireError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ChatwireError);
    return err as ChatwireError;
  }
  throw new Error("expected a ChatwireError");
}

function fieldOf(body: unknown, info: TemplateInfo = plain): string | undefined {
  const err = errorOf(() => normalizeRequest(body, info));
  expect(err.code).toBe("invalid_request");
  expect(err.message.startsWith(`${err.field}: `)).toBe(true);
  return err.field;
}

const call = (id: string, name: string, args: unknown) => ({ id, type: "function", function: { name, arguments: args } });

describe("readJson", () => {
  it("keeps integral float literals as PyFloat and everything else as JSON.parse does", () => {
    const v = readJson('{"a": 1.0, "b": 1, "c": 2.5, "d": 1e3, "e": -0.0, "f": [true, false, null, "x\\u00e9\\n"]}') as Record<string, unknown>;
    expect(v.a).toBeInstanceOf(PyFloat);
    expect((v.a as PyFloat).value).toBe(1);
    expect(v.b).toBe(1);
    expect(v.c).toBe(2.5);
    expect(v.d).toEqual(new PyFloat(1000));
    expect(Object.is((v.e as PyFloat).value, -0)).toBe(true);
    expect(v.f).toEqual([true, false, null, "xé\n"]);
  });

  it("matches JSON.parse on values without floats", () => {
    const text = ' {"k": [1, -2, {"x": "\\"q\\" \\\\ \\/ \\t"}, [], {}], "u": "\\ud83d\\ude00 深圳", "e\\\\": "\\\\", "q": "\\\\\\""} ';
    expect(readJson(text)).toEqual(JSON.parse(text));
  });

  it("keeps __proto__ as an own key, like JSON.parse", () => {
    const v = readJson('{"__proto__": {"polluted": 1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(["", "{", '{"a" 1}', "[1,]", "01", '"\\x"', '"a\nb"', "1 2", "tru", "{'a': 1}"])("rejects %j", (text) => {
    expect(() => readJson(text)).toThrow(SyntaxError);
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });
});

describe("rule 1: request shape", () => {
  it("needs messages or input", () => {
    expect(fieldOf({ model: "m" })).toBe("messages");
    expect(fieldOf(null)).toBe("messages");
    expect(fieldOf("hello")).toBe("messages");
  });
  it("messages must be an array of objects", () => {
    expect(fieldOf({ messages: "hi" })).toBe("messages");
    expect(fieldOf({ messages: [{ role: "user", content: "a" }, 3] })).toBe("messages[1]");
  });
  it("prefers messages when both are present", () => {
    const c = normalizeRequest({ messages: [{ role: "user", content: "m" }], input: "i" }, plain);
    expect(c.messages).toEqual([{ role: "user", content: "m" }]);
  });
});

describe("rule 2: roles and copies", () => {
  it("accepts the six roles and names a bad one", () => {
    for (const role of ["system", "user", "assistant", "tool", "function"]) {
      expect(normalizeRequest({ messages: [{ role, content: "x" }] }, rich).messages[0]?.role).toBe(role);
    }
    expect(fieldOf({ messages: [{ role: "user", content: "a" }, { role: "robot", content: "b" }] })).toBe("messages[1].role");
    expect(fieldOf({ messages: [{ content: "no role" }] })).toBe("messages[0].role");
  });
  it("passes a role the template names itself (ipython, observation, ...)", () => {
    const info = { ...plain, namesRole: (r: string) => r === "ipython" };
    expect(normalizeRequest({ messages: [{ role: "ipython", content: "42" }] }, info).messages[0]?.role).toBe("ipython");
    expect(fieldOf({ messages: [{ role: "observation", content: "b" }] }, info)).toBe("messages[0].role");
    expect(fieldOf({ messages: [{ role: "", content: "b" }] }, { ...plain, namesRole: () => true })).toBe("messages[0].role");
  });
  it("never mutates the caller's objects", () => {
    const body = {
      messages: [
        { role: "developer", content: [{ type: "input_text", text: "d" }] },
        { role: "assistant", content: null, tool_calls: [call("c1", "f", '{"a": 1}')] },
        { role: "tool", tool_call_id: "c1", content: "r" },
      ],
    };
    const before = structuredClone(body);
    normalizeRequest(body, plain);
    normalizeRequest(body, rich);
    expect(body).toEqual(before);
  });
  it("keeps extra fields", () => {
    const c = normalizeRequest({ messages: [{ role: "user", content: "x", name: "bob", extra: { a: 1 } }] }, plain);
    expect(c.messages[0]).toEqual({ role: "user", content: "x", name: "bob", extra: { a: 1 } });
  });
});

describe("rule 3: assistant content", () => {
  it("null or missing becomes an empty string, only for assistants", () => {
    const c = normalizeRequest(
      { messages: [{ role: "user", content: null }, { role: "assistant", content: null }, { role: "assistant" }] },
      plain,
    );
    expect(c.messages.map((m) => m.content)).toEqual([null, "", ""]);
  });
  it("a message with calls and no text gets None where the template prints calls only then (and only there)", () => {
    const body = {
      messages: [
        { role: "assistant", content: null, tool_calls: [call("a", "f", "{}")] },
        { role: "assistant", content: "", tool_calls: [call("b", "f", "{}")] },
        { role: "assistant", tool_calls: [call("c", "f", "{}")] },
        { role: "assistant", content: "text", tool_calls: [call("d", "f", "{}")] },
        { role: "assistant", content: null },
      ],
    };
    expect(normalizeRequest(body, plain).messages.map((m) => m.content)).toEqual(["", "", "", "text", ""]);
    expect(normalizeRequest(body, { ...plain, callContentAsNone: true }).messages.map((m) => m.content)).toEqual([null, null, null, "text", ""]);
    const responses = { input: [{ type: "function_call", call_id: "x", name: "f", arguments: "{}" }] };
    expect(normalizeRequest(responses, { ...plain, callContentAsNone: true }).messages[0]?.content).toBeNull();
  });
  it("several calls in one message are split for templates that print one call per message", () => {
    const body = {
      messages: [
        { role: "user", content: "u" },
        { role: "assistant", content: "both", reasoning_content: "r", tool_calls: [call("a", "f", "{}"), call("b", "g", "{}"), call("c", "h", "{}")] },
      ],
    };
    expect(normalizeRequest(body, plain).messages).toHaveLength(2);
    const split = normalizeRequest(body, { ...plain, callsOnePerMessage: true }).messages;
    expect(split.map((m) => [m.role, m.content, (m.tool_calls as { id: string }[] | undefined)?.map((c) => c.id)])).toEqual([
      ["user", "u", undefined],
      ["assistant", "both", ["a"]],
      ["assistant", "", ["b"]],
      ["assistant", "", ["c"]],
    ]);
    expect(split[1]?.reasoning_content).toBe("r");
    expect(split[2]).not.toHaveProperty("reasoning_content");
    const none = normalizeRequest(body, { ...plain, callsOnePerMessage: true, callContentAsNone: true }).messages;
    expect(none[3]?.content).toBeNull();
  });
  it("content must be a string, null or a list of parts", () => {
    expect(fieldOf({ messages: [{ role: "user", content: "ok" }, { role: "user", content: 5 }] })).toBe("messages[1].content");
    expect(fieldOf({ messages: [{ role: "assistant", content: { text: "x" } }] })).toBe("messages[0].content");
    expect(fieldOf({ input: [{ role: "user", content: true }] })).toBe("input[0].content");
    const call = { type: "function_call", call_id: "c", name: "f", arguments: "{}" };
    expect(fieldOf({ input: [call, { type: "function_call_output", call_id: "c", output: 5 }] })).toBe("input[1].output");
  });
});

describe("rule 4: tool call arguments", () => {
  it("parses JSON strings, keeping floats, and leaves objects alone", () => {
    const obj = { x: 2 };
    const c = normalizeRequest(
      { messages: [{ role: "assistant", content: "", tool_calls: [call("a", "f", '{"t": 1.0, "u": [1, 2.50]}'), call("b", "g", obj)] }] },
      plain,
    );
    const calls = c.messages[0]?.tool_calls as { function: { arguments: unknown } }[];
    expect(calls[0]?.function.arguments).toEqual({ t: new PyFloat(1), u: [1, 2.5] });
    expect(calls[1]?.function.arguments).toBe(obj);
    expect(c.warnings).toEqual([]);
  });
  it("keeps a string that is not JSON and warns, naming the field", () => {
    const c = normalizeRequest({ messages: [{ role: "assistant", content: "", tool_calls: [call("a", "f", "{oops")] }] }, plain);
    expect((c.messages[0]?.tool_calls as { function: { arguments: unknown } }[])[0]?.function.arguments).toBe("{oops");
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toContain("messages[0].tool_calls[0].function.arguments");
  });
  it("names malformed tool_calls", () => {
    expect(fieldOf({ messages: [{ role: "assistant", content: "", tool_calls: {} }] })).toBe("messages[0].tool_calls");
    expect(fieldOf({ messages: [{ role: "assistant", content: "", tool_calls: ["x"] }] })).toBe("messages[0].tool_calls[0]");
  });
  it("a call needs a function with a non-empty string name and string or object arguments", () => {
    const at = (c: unknown) => fieldOf({ messages: [{ role: "user", content: "x" }, { role: "user", content: "y" }, { role: "user", content: "z" }, { role: "assistant", content: null, tool_calls: [c] }] });
    expect(at({ id: "a", type: "function", function: { arguments: "{}" } })).toBe("messages[3].tool_calls[0].function.name");
    expect(at(call("a", 5 as unknown as string, "{}"))).toBe("messages[3].tool_calls[0].function.name");
    expect(at(call("a", "", "{}"))).toBe("messages[3].tool_calls[0].function.name");
    expect(at(call("a", "f", 5))).toBe("messages[3].tool_calls[0].function.arguments");
    expect(at(call("a", "f", [1]))).toBe("messages[3].tool_calls[0].function.arguments");
    expect(at({ id: "a", type: "function", function: { name: "f" } })).toBe("messages[3].tool_calls[0].function.arguments");
    expect(at({ id: "a", type: "function" })).toBe("messages[3].tool_calls[0].function");
    expect(fieldOf({ input: [{ type: "function_call", call_id: "c", name: "f", arguments: 5 }] })).toBe("input[0].arguments");
  });
  it("templates that concatenate arguments get JSON text, also for objects", () => {
    const info = { ...plain, readsArgumentsAsString: true };
    const c = normalizeRequest({ messages: [{ role: "assistant", content: "", tool_calls: [call("a", "f", '{"t":1.0}'), call("b", "g", { é: [1, "ü"] })] }] }, info);
    const args = (c.messages[0]?.tool_calls as { function: { arguments: unknown } }[]).map((x) => x.function.arguments);
    expect(args).toEqual(['{"t":1.0}', '{"é": [1, "ü"]}']);
  });
});

describe("rule 5: tool results", () => {
  const assistant = { role: "assistant", content: null, tool_calls: [call("c1", "get_weather", "{}"), call("c2", "get_time", "{}")] };
  it("gets the name of its call", () => {
    const c = normalizeRequest(
      {
        messages: [
          assistant,
          { role: "tool", tool_call_id: "c2", content: "noon" },
          { role: "tool", tool_call_id: "c1", content: "sun", name: "kept" },
        ],
      },
      plain,
    );
    expect(c.messages[1]).toEqual({ role: "tool", tool_call_id: "c2", content: "noon", name: "get_time" });
    expect(c.messages[2]?.name).toBe("kept");
  });
  it("an id that matches no earlier call is an error naming the field", () => {
    expect(fieldOf({ messages: [assistant, { role: "tool", tool_call_id: "zz", content: "x" }] })).toBe("messages[1].tool_call_id");
    // calls made later do not count
    expect(fieldOf({ messages: [{ role: "tool", tool_call_id: "c1", content: "x" }, assistant] })).toBe("messages[0].tool_call_id");
  });
  it("a tool message without tool_call_id is left as is", () => {
    const c = normalizeRequest({ messages: [{ role: "tool", content: "x" }] }, plain);
    expect(c.messages[0]).toEqual({ role: "tool", content: "x" });
  });
});

describe("rule 6: developer role", () => {
  it("becomes system unless the template knows developer", () => {
    const body = { messages: [{ role: "developer", content: "rules" }] };
    expect(normalizeRequest(body, plain).messages[0]?.role).toBe("system");
    expect(normalizeRequest(body, rich).messages[0]?.role).toBe("developer");
  });
});

describe("rule 7: content parts", () => {
  const parts = [
    { type: "text", text: "one" },
    { type: "input_text", text: "two" },
    { type: "output_text", text: "three" },
  ];
  it("text-only arrays are joined for templates that read strings", () => {
    expect(normalizeRequest({ messages: [{ role: "user", content: parts }] }, plain).messages[0]?.content).toBe("one\ntwo\nthree");
  });
  it("kept for templates that read parts, with Responses types renamed", () => {
    const content = normalizeRequest({ messages: [{ role: "user", content: parts }] }, rich).messages[0]?.content;
    expect(content).toEqual([
      { type: "text", text: "one" },
      { type: "text", text: "two" },
      { type: "text", text: "three" },
    ]);
  });
  it("arrays with a non-text part are kept even for string templates", () => {
    const mixed = [{ type: "text", text: "look" }, { type: "image_url", image_url: { url: "u" } }];
    expect(normalizeRequest({ messages: [{ role: "user", content: mixed }] }, plain).messages[0]?.content).toEqual(mixed);
  });
  it("asks the template about parts only when the request has some", () => {
    let asked = 0;
    const info = {
      knowsDeveloperRole: false,
      get readsContentParts() {
        asked++;
        return false;
      },
    };
    normalizeRequest({ messages: [{ role: "user", content: "x" }] }, info);
    expect(asked).toBe(0);
    normalizeRequest({ messages: [{ role: "user", content: parts }] }, info);
    expect(asked).toBe(1);
  });
  it("decides per role when the template says so (tool results and Responses outputs ask for `tool`)", () => {
    const asked: string[] = [];
    const info = {
      knowsDeveloperRole: false,
      readsContentParts: true,
      readsContentPartsIn: (role: string) => {
        asked.push(role);
        return role !== "tool";
      },
    };
    const call = { id: "c1", type: "function", function: { name: "f", arguments: "{}" } };
    const ab = [
      { type: "text", text: "a" },
      { type: "text", text: "b" },
    ];
    const chat = normalizeRequest(
      {
        messages: [
          { role: "developer", content: ab },
          { role: "user", content: ab },
          { role: "assistant", content: null, tool_calls: [call] },
          { role: "tool", tool_call_id: "c1", content: ab },
        ],
      },
      info,
    );
    expect(chat.messages.map((m) => m.content)).toEqual([ab, ab, "", "a\nb"]);
    // The user role keeps the plain answer; developer became system before the question was asked.
    expect(asked).toEqual(["system", "tool"]);
    const responses = normalizeRequest(
      { input: [{ type: "function_call", call_id: "c1", name: "f", arguments: "{}" }, { type: "function_call_output", call_id: "c1", output: ab }] },
      info,
    );
    expect(responses.messages[1]).toMatchObject({ role: "tool", content: "a\nb" });
  });
  it("names a part that is not an object", () => {
    expect(fieldOf({ messages: [{ role: "user", content: [{ type: "text", text: "a" }, "b"] }] })).toBe("messages[0].content[1]");
  });
});

describe("rule 8: Responses input", () => {
  it("instructions and a string input", () => {
    const c = normalizeRequest({ instructions: "Be brief.", input: "Hi" }, plain);
    expect(c.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hi" },
    ]);
  });
  it("folds a turn of items into messages with tool calls and results", () => {
    const c = normalizeRequest(
      {
        input: [
          { role: "user", content: [{ type: "input_text", text: "Weather in Paris and Rome?" }] },
          { type: "reasoning", summary: [{ type: "summary_text", text: "Two cities." }, { type: "summary_text", text: "Two calls." }] },
          { type: "message", role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
          { type: "function_call", call_id: "c1", name: "get_weather", arguments: '{"city": "Paris", "t": 1.0}' },
          { type: "function_call", call_id: "c2", name: "get_weather", arguments: '{"city": "Rome"}' },
          { type: "function_call_output", call_id: "c1", output: "18C" },
          { type: "function_call_output", call_id: "c2", output: [{ type: "input_text", text: "21C" }] },
          { type: "function_call", call_id: "c3", name: "get_time", arguments: "{}" },
        ],
        tools: [{ type: "function", name: "get_weather", parameters: { type: "object" }, strict: true }],
      },
      plain,
    );
    expect(c.messages).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Checking.",
        reasoning_content: "Two cities.\nTwo calls.",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "get_weather", arguments: { city: "Paris", t: new PyFloat(1) } } },
          { id: "c2", type: "function", function: { name: "get_weather", arguments: { city: "Rome" } } },
        ],
      },
      { role: "tool", tool_call_id: "c1", name: "get_weather", content: "18C" },
      { role: "tool", tool_call_id: "c2", name: "get_weather", content: "21C" },
      { role: "assistant", content: "", tool_calls: [{ id: "c3", type: "function", function: { name: "get_time", arguments: {} } }] },
    ]);
    expect(c.tools).toEqual([{ type: "function", function: { name: "get_weather", parameters: { type: "object" }, strict: true } }]);
  });
  it("a function_call with reasoning before it starts a new assistant message carrying the reasoning", () => {
    const c = normalizeRequest(
      {
        input: [
          { role: "user", content: "x" },
          { type: "reasoning", summary: [{ type: "summary_text", text: "think" }] },
          { type: "function_call", call_id: "c1", name: "f", arguments: "nope" },
        ],
      },
      plain,
    );
    expect(c.messages[1]).toEqual({
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "nope" } }],
      reasoning_content: "think",
    });
    expect(c.warnings[0]).toContain("input[2].arguments");
  });
  it("developer items follow rule 6", () => {
    expect(normalizeRequest({ input: [{ role: "developer", content: "d" }] }, plain).messages[0]?.role).toBe("system");
  });
  it("errors name the input item", () => {
    expect(fieldOf({ input: 5 })).toBe("input");
    expect(fieldOf({ input: ["x"] })).toBe("input[0]");
    expect(fieldOf({ input: [{ type: "web_search_call" }] })).toBe("input[0].type");
    expect(fieldOf({ input: [{ role: "wizard", content: "x" }] })).toBe("input[0].role");
    expect(fieldOf({ input: [{ type: "function_call_output", call_id: "nope", output: "x" }] })).toBe("input[0].call_id");
    expect(fieldOf({ input: [{ type: "function_call", name: "f", arguments: "{}" }] })).toBe("input[0].call_id");
    expect(fieldOf({ input: [{ type: "function_call", call_id: "c", arguments: "{}" }] })).toBe("input[0].name");
    expect(fieldOf({ input: "x", instructions: 3 })).toBe("instructions");
  });
});

describe("rule 9: tools and tool_choice", () => {
  it("keeps every field of Chat tools, floats included; empty means none", () => {
    const tools = readJson('[{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"t": {"type": "number", "default": 1.0}}}, "x-extra": true}}]');
    const c = normalizeRequest({ messages: [{ role: "user", content: "x" }], tools }, plain);
    expect(c.tools).toEqual(tools);
    expect(normalizeRequest({ messages: [], tools: [] }, plain).tools).toBeUndefined();
    expect("tools" in normalizeRequest({ messages: [] }, plain)).toBe(false);
  });
  it("names bad tools", () => {
    const m = [{ role: "user", content: "x" }];
    expect(fieldOf({ messages: m, tools: {} })).toBe("tools");
    expect(fieldOf({ messages: m, tools: [{ type: "function", function: { name: "ok" } }, "x"] })).toBe("tools[1]");
    expect(fieldOf({ messages: m, tools: [{ type: "function", function: { name: "" } }] })).toBe("tools[0].function.name");
    expect(fieldOf({ messages: m, tools: [{ type: "function", function: { name: "f" } }, { type: "function", function: { name: "g", parameters: "x" } }] })).toBe(
      "tools[1].function.parameters",
    );
    expect(fieldOf({ input: "x", tools: [{ type: "function", name: "g", parameters: [] }] })).toBe("tools[0].parameters");
    // Field names are made only for an error: each place still named, nested and flat, plain and frozen (readSharedJson's).
    expect(fieldOf({ messages: m, tools: [{ type: "function", function: { name: "f" } }, { type: "retrieval" }] })).toBe("tools[1].type");
    // A schema's error: the message names the schema's field, `field` the wrong place inside it.
    const typo = { type: "object", properties: { n: { type: "integr" } } };
    const schemaError = (body: unknown) => {
      const err = errorOf(() => normalizeRequest(body, plain));
      return { code: err.code, field: err.field, at: err.message.slice(0, err.message.indexOf(": ")) };
    };
    const nested = { messages: m, tools: [{ type: "function", function: { name: "f" } }, { type: "function", function: { name: "g", parameters: typo } }] };
    const place = { code: "invalid_request", field: "tools[1].function.parameters.properties.n.type", at: "tools[1].function.parameters" };
    expect(schemaError(nested)).toEqual(place);
    expect(schemaError(readSharedJson(JSON.stringify(nested)))).toEqual(place);
    expect(schemaError({ input: "x", tools: [{ type: "function", name: "g", parameters: typo }] })).toEqual({ code: "invalid_request", field: "tools[0].parameters.properties.n.type", at: "tools[0].parameters" });
  });
  it("refuses a schema read from JSON text with an integral float where a subschema is, as it refuses the caller's", () => {
    // readSharedJson's lists are surveyed as plain data (json-made.ts): its PyFloat `1.0` is still no schema.
    const m = [{ role: "user", content: "x" }];
    const text = (where: string) =>
      `{"messages": ${JSON.stringify(m)}, "tools": [{"type": "function", "function": {"name": "f", "description": "a tool long enough to be kept", "parameters": ${where}}}]}`;
    for (const where of ['{"type": "object", "additionalProperties": 1.0}', '{"type": "object", "properties": {"x": 1.0}}', '{"type": "array", "items": [1.0]}']) {
      const shared = errorOf(() => normalizeRequest(readSharedJson(text(where)), plain));
      const parsed = errorOf(() => normalizeRequest(JSON.parse(text(where)), plain));
      expect(shared.field).toMatch(/^tools\[0\]\.function\.parameters/);
      expect({ code: shared.code, message: shared.message, field: shared.field }).toEqual({ code: parsed.code, message: parsed.message, field: parsed.field });
    }
    // And one it takes, with a float default, normalises as before.
    const good = readSharedJson(text('{"type": "object", "properties": {"x": {"type": "number", "default": 1.0, "minimum": 0.0}}}')) as { tools: unknown[] };
    expect(normalizeRequest(good, plain).tools).toHaveLength(1);
  });
  it("two tools by one name are an error naming the second", () => {
    const m = [{ role: "user", content: "x" }];
    const f = { type: "function", function: { name: "f" } };
    expect(fieldOf({ messages: m, tools: [f, { type: "function", function: { name: "g" } }, f] })).toBe("tools[2].function.name");
    expect(fieldOf({ input: "x", tools: [{ type: "function", name: "f" }, { type: "function", name: "f" }] })).toBe("tools[1].name");
    // Short lists compare names in turn, long ones keep a Set: both find a repeat anywhere, plain and frozen (readSharedJson's).
    for (const count of [2, 32, 33, 80]) {
      const tools = Array.from({ length: count }, (_, i) => ({ type: "function", function: { name: `tool_${i}` } }));
      expect(normalizeRequest({ messages: m, tools }, plain).tools).toHaveLength(count);
      expect(normalizeRequest(readSharedJson(JSON.stringify({ messages: m, tools })), plain).tools).toHaveLength(count);
      // Same length as an earlier name but other text, then a real repeat last.
      const repeated = [...tools, { type: "function", function: { name: "tool_x" } }, { type: "function", function: { name: `tool_${count >> 1}` } }];
      expect(fieldOf({ messages: m, tools: repeated })).toBe(`tools[${count + 1}].function.name`);
      expect(fieldOf(readSharedJson(JSON.stringify({ messages: m, tools: repeated })))).toBe(`tools[${count + 1}].function.name`);
    }
  });
  it("reads tool_choice", () => {
    const m = [{ role: "user", content: "x" }];
    expect(normalizeRequest({ messages: m }, plain).toolChoice).toEqual({ kind: "auto" });
    expect(normalizeRequest({ messages: m, tool_choice: "required" }, plain).toolChoice).toEqual({ kind: "required" });
    expect(normalizeRequest({ messages: m, tool_choice: { type: "function", function: { name: "f" } } }, plain).toolChoice).toEqual({
      kind: "function",
      name: "f",
    });
    expect(normalizeRequest({ input: "x", tool_choice: { type: "function", name: "g" } }, plain).toolChoice).toEqual({ kind: "function", name: "g" });
    expect(fieldOf({ messages: m, tool_choice: "sometimes" })).toBe("tool_choice");
  });
});

describe("readJson fast path", () => {
  it("takes JSON.parse only when no integral float sits outside a string", async () => {
    const { readJson } = await import("../src/request/read-json.js");
    const { PyFloat } = await import("../src/jinja/py-float.js");
    expect(readJson('{"a": "1.0", "b": 2.5}')).toEqual({ a: "1.0", b: 2.5 });
    const v = readJson('{"s": "say \\"1.0\\"", "n": 3.0, "e": 1e3}') as Record<string, unknown>;
    expect(v.s).toBe('say "1.0"');
    expect(v.n).toBeInstanceOf(PyFloat);
    expect(v.e).toBeInstanceOf(PyFloat);
    expect(() => readJson('{"a": }')).toThrow(/position/);
    // A huge string literal next to floats must not exhaust the stack on the way to the fast path.
    const huge = readJson(`{"a": "${"x".repeat(20_000_000)} 1.5", "n": 3.0, "m": 2.5}`) as Record<string, unknown>;
    expect((huge.a as string).length).toBe(20_000_004);
    expect(huge.n).toBeInstanceOf(PyFloat);
    expect(huge.m).toBe(2.5);
    const deep = "[".repeat(1001) + "]".repeat(1001);
    expect(() => readJson(deep)).toThrow(/nested too deeply/);
  });
});
