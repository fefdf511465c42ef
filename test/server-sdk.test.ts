/**
 * `chatwire serve` through the official clients, as a user would call it: the pinned `openai` SDK
 * (6.30.1) `chat.completions.create` / `.stream()` + `finalChatCompletion()` and `responses.create` /
 * `.stream()` + `finalResponse()`, on completions with reasoning, text and calls, several calls mixed
 * with text, and a call dropped by validation; and the Vercel AI SDK's generateText / streamText via
 * @ai-sdk/openai-compatible. The SDKs' own accumulators must finish without error, and the streamed
 * final objects must equal the non-streamed answers.
 */
import OpenAI from "openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/server/index.js";
import { loadTemplate } from "../src/template/index.js";
import { fakeBackend, type FakeBackend } from "./server-fakes.js";

const WEATHER = { type: "object", properties: { city: { type: "string" }, unit: { type: "string", enum: ["C", "F"] } }, required: ["city"], additionalProperties: false } as const;
const TIME = { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] } as const;

const call = (name: string, args: string): string => `<tool_call>\n{"name": "${name}", "arguments": ${args}}\n</tool_call>`;

/** Completions in the hermes format (Qwen3), each a case the issue names. */
const CASES: Record<string, string> = {
  "reasoning + text + call": `<think>\nThe user wants Paris weather.\n</think>\n\nChecking.\n${call("get_weather", '{"city": "Paris", "unit": "C"}')}`,
  "text, calls and text mixed": `First the weather.\n${call("get_weather", '{"city": "Oslo"}')}\nThen the time.\n${call("get_time", '{"zone": "CET"}')}`,
  "a call dropped by validation, one kept": `<think>\nTwo calls.\n</think>\n\n${call("get_weather", '{"city": "Rome", "unit": "kelvin"}')}\n${call("get_time", '{"zone": "UTC"}')}`,
  "reasoning and text only": "<think>\nEasy.\n</think>\n\nIt is 4.",
};

const CHAT_TOOLS: OpenAI.Chat.Completions.ChatCompletionTool[] = [
  { type: "function", function: { name: "get_weather", parameters: WEATHER } },
  { type: "function", function: { name: "get_time", parameters: TIME } },
];
const RESPONSE_TOOLS: OpenAI.Responses.FunctionTool[] = [
  { type: "function", name: "get_weather", parameters: WEATHER, strict: false },
  { type: "function", name: "get_time", parameters: TIME, strict: false },
];

let backend: FakeBackend;
let server: RunningServer;
let client: OpenAI;
let ids = 0;

beforeAll(async () => {
  backend = await fakeBackend("llamacpp", { completion: "", pieceSize: 3 });
  server = await startServer({ textPrompt: true, template: await loadTemplate("qwen3"), backend: backend.url, backendKind: "llamacpp", port: 0, idGenerator: () => `call_${String(ids++).padStart(24, "0")}`, backendTimeoutMs: 3000 });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0, timeout: 5000 });
});
afterAll(async () => {
  await server.close();
  await backend.close();
});

/** Fields the SDK's stream helpers add to what the server sent (its structured-output parsing). */
const SDK_DECORATIONS = new Set(["parsed", "parsed_arguments", "output_parsed", "output_text"]);

/**
 * Call ids are per answer; numbering them in order of appearance makes two answers comparable. The
 * SDK's own decorations are left out (create() adds output_text, the stream's final adds output_parsed).
 */
function renumber<T>(value: T): T {
  const seen = new Map<string, string>();
  return JSON.parse(JSON.stringify(value), (key, v: unknown) => {
    if (SDK_DECORATIONS.has(key)) return undefined;
    if ((key === "id" || key === "call_id") && typeof v === "string" && v.startsWith("call_")) {
      if (!seen.has(v)) seen.set(v, `call_${seen.size}`);
      return seen.get(v);
    }
    return v;
  }) as T;
}

describe.each(Object.entries(CASES))("openai SDK: %s", (_name, completion) => {
  beforeAll(() => backend.set({ completion }));

  it("chat.completions.stream() + finalChatCompletion() equals chat.completions.create()", async () => {
    const params = { model: "qwen3", messages: [{ role: "user" as const, content: "Weather in Paris, and the time?" }], tools: CHAT_TOOLS };
    const whole = await client.chat.completions.create(params);
    const stream = client.chat.completions.stream({ ...params, stream_options: { include_usage: true } });
    let reasoning = "";
    stream.on("chunk", (chunk) => {
      const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
      reasoning += delta?.reasoning_content ?? "";
    });
    const final = await stream.finalChatCompletion();
    const wholeMessage = whole.choices[0]!.message as OpenAI.Chat.Completions.ChatCompletionMessage & { reasoning_content?: string };
    // The SDK copies unknown delta fields with Object.assign, so its final `reasoning_content` is only the
    // last piece; the pieces themselves add up to the whole reasoning.
    expect(reasoning).toBe(wholeMessage.reasoning_content ?? "");
    const { reasoning_content: _r, ...finalMessage } = final.choices[0]!.message as typeof wholeMessage;
    const { reasoning_content: _w, ...expectedMessage } = wholeMessage;
    expect(renumber(finalMessage)).toEqual(renumber({ ...expectedMessage, refusal: null }));
    expect(final.choices[0]!.finish_reason).toBe(whole.choices[0]!.finish_reason);
    expect(final.usage).toEqual(whole.usage);
    expect((final as unknown as { chatwire_errors: unknown }).chatwire_errors).toEqual((whole as unknown as { chatwire_errors: unknown }).chatwire_errors);
    if (completion.includes("kelvin")) {
      expect(whole.choices[0]!.message.tool_calls?.map((c) => (c.type === "function" ? c.function.name : ""))).toEqual(["get_time"]);
      expect(whole.choices[0]!.message.content).toContain('"unit": "kelvin"');
    }
  });

  it("responses.stream() + finalResponse() equals responses.create()", async () => {
    const params = { model: "qwen3", input: "Weather in Paris, and the time?", tools: RESPONSE_TOOLS };
    const whole = await client.responses.create(params);
    const stream = client.responses.stream(params);
    const types: string[] = [];
    stream.on("event", (e) => types.push(e.type));
    const final = await stream.finalResponse();
    const strip = (r: OpenAI.Responses.Response): unknown => renumber({ ...r, id: "", created_at: 0, output: r.output.map((item) => ({ ...item, id: "" })) });
    expect(strip(final)).toEqual(strip(whole));
    if (completion.startsWith("<think>")) {
      // The official order for reasoning text: its content part is added before the first delta.
      const first = types.indexOf("response.reasoning_text.delta");
      expect(types.slice(first - 2, first)).toEqual(["response.output_item.added", "response.content_part.added"]);
    }
    expect(types.at(-1)).toBe("response.completed");
  });
});

describe("Vercel AI SDK (@ai-sdk/openai-compatible)", () => {
  it("generateText and streamText agree on text, reasoning and tool calls", async () => {
    backend.set({ completion: CASES["text, calls and text mixed"]! });
    const provider = createOpenAICompatible({ name: "chatwire", baseURL: `${server.url}/v1`, apiKey: "unused" });
    const tools = { get_weather: tool({ inputSchema: jsonSchema(WEATHER) }), get_time: tool({ inputSchema: jsonSchema(TIME) }) };
    const prompt = "Weather in Oslo, and the time?";
    const whole = await generateText({ model: provider.chatModel("qwen3"), prompt, tools, maxRetries: 0 });
    const streamed = streamText({ model: provider.chatModel("qwen3"), prompt, tools, maxRetries: 0 });
    const calls = (list: { toolName: string; input: unknown }[]): unknown => list.map((c) => ({ name: c.toolName, input: c.input }));
    expect(calls(await streamed.toolCalls)).toEqual(calls(whole.toolCalls));
    expect(calls(whole.toolCalls)).toEqual([
      { name: "get_weather", input: { city: "Oslo" } },
      { name: "get_time", input: { zone: "CET" } },
    ]);
    expect(await streamed.text).toBe(whole.text);
    expect(await streamed.finishReason).toBe(whole.finishReason);
  });
});
