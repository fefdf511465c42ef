/**
 * Channel message headers (harmony, Functionary v3.2, Glimmer): which header text is protocol, and
 * what becomes of a header that is not (docs/parsing.md, "Text: never lost"). A header is protocol
 * when it is one of the `headers` patterns of its format's description; any other header is content,
 * kept exactly with its markers, and a `malformed` issue quotes it. Expectations are written from the
 * formats' own templates and published shapes (the real completions live in fixtures/completions and
 * are checked by stream-property.test.ts), one-shot and at every split (the tester).
 */
import { describe, expect, it } from "vitest";
import { parseCompletion } from "../../src/parse/index.js";
import { tester } from "../helpers/tester.js";
import { TOOLS } from "../formats/_tools.js";

const harmony = tester("harmony").tools(TOOLS).promptSuffix("<|start|>assistant");
const functionary = tester("functionary-v3.2").tools(TOOLS).promptSuffix("<|start_header_id|>assistant<|end_header_id|>\n\n>>>");
const glimmer = tester("muse-glimmer").tools(TOOLS).promptSuffix("<|start|>assistant");

describe("harmony headers", () => {
  it("every header shape gpt-oss writes is protocol (no text, no issue)", () => {
    harmony
      .test('<|channel|>analysis<|message|>Plan.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>')
      .expect({ reasoning_content: "Plan.", content: null, tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
    harmony.test('<|channel|>commentary to=functions.search<|constrain|>json<|message|>{"query": "a"}<|call|>').expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "a" } }] });
    harmony.test('<|channel|>commentary to=functions.search code<|message|>{"query": "a"}<|call|>').expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "a" } }] });
    harmony.test('<|channel|>commentary <|constrain|>json<|message|>Checking.<|end|>').expect({ content: "Checking." });
    harmony.test("<|channel|>final<|message|>Done.<|return|>").expect({ content: "Done." });
    harmony.test("<|message|>No channel.<|return|>").expect({ content: "No channel." });
  });

  it("a content type before the recipient is protocol too (a form SGLang reads)", () => {
    harmony.test('<|channel|>commentary<|constrain|>json to=functions.search<|message|>{"query": "x"}<|call|>').expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "x" } }] });
  });

  it("a channel name cut short is no header: content with its markers, and an issue", () => {
    harmony
      .test("<|channel|>analys<|message|>draft<|end|><|start|>assistant<|channel|>final<|message|>Hi")
      .errors([{ type: "malformed" }])
      .expect({ content: "<|channel|>analys<|message|>draftHi" });
  });

  it("noise in the role is no header; the messages around it are routed as usual", () => {
    harmony
      .test("<|channel|>analysis<|message|>Think.<|end|><|start|>assistant junk<|channel|>final<|message|>Hi")
      .errors([{ type: "malformed" }])
      .expect({ reasoning_content: "Think.", content: "<|start|>assistant junk<|channel|>final<|message|>Hi" });
  });

  it("two recipients, or a recipient that runs into another channel marker, make no call", () => {
    harmony
      .test('<|channel|>commentary to=functions.get_weather to=functions.search<|message|>{"city": "Oslo"}<|call|>')
      .errors([{ type: "malformed" }])
      .expect({ content: '<|channel|>commentary to=functions.get_weather to=functions.search<|message|>{"city": "Oslo"}' });
    harmony
      .test('<|channel|>commentary to=functions.get_weather<|channel|>commentary<|message|>{"city": "Oslo"}<|call|>')
      .errors([{ type: "malformed" }])
      .expect({ content: '<|channel|>commentary to=functions.get_weather<|channel|>commentary<|message|>{"city": "Oslo"}' });
  });

  it("prose where the header should be is content", () => {
    harmony
      .test("Sure thing<|message|> - done.<|return|>")
      .errors([{ type: "malformed" }])
      .expect({ content: "Sure thing<|message|> - done." });
  });

  it("without a prompt suffix the output may open its header itself", () => {
    const t = tester("harmony").tools(TOOLS);
    t.test('<|start|>assistant<|channel|>commentary to=functions.search <|constrain|>json<|message|>{"query": "x"}<|call|>').expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "x" } }] });
    t.test("<|channel|>analysis<|message|>Hm.<|end|><|start|>assistant<|channel|>final<|message|>Yes.").expect({ reasoning_content: "Hm.", content: "Yes." });
  });

  it("the issue quotes the header and holds its text", () => {
    const r = parseCompletion("harmony", "<|channel|>analys<|message|>x", { tools: TOOLS }, { promptSuffix: "<|start|>assistant" });
    expect(r.errors).toEqual([{ type: "malformed", message: 'a message header the format does not write, kept as content: "<|channel|>analys<|message|>"', text: "<|channel|>analys<|message|>" }]);
  });
});

describe("functionary v3.2 recipient lines", () => {
  it("prose where the recipient line should be is content", () => {
    functionary
      .test('Hello there!\n>>>get_weather\n{"city": "Oslo"}')
      .errors([{ type: "malformed" }])
      .expect({ content: "Hello there!\n", tool_calls: [{ name: "get_weather", arguments: { city: "Oslo" } }] });
  });

  it("a recipient line that is no name is content, and so is its body", () => {
    functionary
      .test('all\nLet me check.>>>get_wea ther\n{"city": "Dublin"}')
      .errors([{ type: "malformed" }])
      .expect({ content: 'Let me check.>>>get_wea ther\n{"city": "Dublin"}' });
  });

  it("an empty recipient line is protocol", () => {
    functionary.test("\nJust text.").expect({ content: "Just text." });
  });

  it("without a prompt suffix the output may write the >>> itself", () => {
    tester("functionary-v3.2").tools(TOOLS).test('>>>search\n{"query": "x"}').expect({ content: null, tool_calls: [{ name: "search", arguments: { query: "x" } }] });
  });
});

describe("glimmer recipients", () => {
  const call = (name: string) => `<atem:function_calls>\n<atem:invoke name="${name}">\n<atem:parameter name="city">Rome</atem:parameter>\n</atem:invoke>\n</atem:function_calls>`;

  it("self is reasoning, user is content, a tool's message holds its call", () => {
    glimmer.test(` to=self<|message|>Weather first.<|eom|><|start|>assistant to=get_weather<|message|>${call("get_weather")}<|eom|>`).expect({
      reasoning_content: "Weather first.",
      content: null,
      tool_calls: [{ name: "get_weather", arguments: { city: "Rome" } }],
    });
    glimmer.test(" to=user<|message|>Sunny.<|eot|>").expect({ content: "Sunny." });
  });

  it("a recipient that only starts like self is a tool's message, not reasoning", () => {
    glimmer.test(" to=selfish<|message|>Not a thought.<|eot|>").expect({ content: " to=selfish<|message|>Not a thought.<|eot|>" });
  });

  it("a message to a tool whose body calls another tool: the call stands, the header is kept", () => {
    glimmer.test(` to=search<|message|>${call("get_weather")}<|eot|>`).expect({
      content: " to=search<|message|><|eot|>",
      tool_calls: [{ name: "get_weather", arguments: { city: "Rome" } }],
    });
  });

  it("a message to a tool without a call is content, header and all", () => {
    glimmer.test(" to=get_weather<|message|>I will look.<|eot|>").expect({ content: " to=get_weather<|message|>I will look.<|eot|>" });
  });

  it("role noise is no header", () => {
    glimmer
      .test(" junk to=user<|message|>Hi<|eot|>")
      .errors([{ type: "malformed" }])
      .expect({ content: " junk to=user<|message|>Hi" });
  });
});
