/**
 * `chatwire serve` end to end on loopback: a fake backend of each kind streams a fixed Qwen3
 * completion (reasoning, text, a hermes tool call), the server runs on an ephemeral port, and a client
 * checks the non-stream answer, that the reassembled stream equals it, what the backend was sent, and
 * the error paths. Every wait is bounded (fetch timeouts, short backend timeouts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJson } from "../src/request/read-json.js";
import { startServer, type RunningServer } from "../src/server/index.js";
import { loadTemplate, templateFromConfig, type ChatTemplate } from "../src/template/index.js";
import { COMPLETION_TOKENS, PROMPT_TOKENS, deadPort, fakeBackend, sseEvents, type FakeBackend, type Kind } from "./server-fakes.js";

const CALL_ID = "call_abcdefghijklmnopqrstuvwx";

const COMPLETION =
  '<think>\nThe user wants the weather in Paris.\n</think>\n\nLet me check that for you.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "°C"}}\n</tool_call>';

/** What the completion means, written out by hand from the hermes format (formats.md). */
const EXPECTED_MESSAGE = {
  role: "assistant",
  content: "\n\nLet me check that for you.\n",
  reasoning_content: "\nThe user wants the weather in Paris.\n",
  tool_calls: [{ id: CALL_ID, type: "function", function: { name: "get_weather", arguments: '{"city": "Paris", "unit": "°C"}' } }],
};

// Written as JSON text: `1.0` must reach the template as a float and the backend as a number.
const TOOLS_JSON =
  '[{"type": "function", "function": {"name": "get_weather", "description": "Current weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["°C", "°F"], "default": "°C"}, "days": {"type": "number", "default": 1.0}}, "required": ["city"], "additionalProperties": false}}}]';

function chatBody(extra = ""): string {
  return `{"model": "qwen3-test", "messages": [{"role": "user", "content": "What's the weather in Paris?"}], "tools": ${TOOLS_JSON}, "max_tokens": 256, "temperature": 1.0, "top_p": 0.9, "stop": ["<|im_end|>"], "seed": 7${extra}}`;
}

function responsesBody(extra = ""): string {
  return `{"model": "qwen3-test", "instructions": "Be brief.", "input": "What's the weather in Paris?", "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["°C", "°F"]}}, "required": ["city"]}}], "max_output_tokens": 128${extra}}`;
}

async function post(url: string, body: string): Promise<{ status: number; text: string; json: () => Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(5000) });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

type Chunk = { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown; chatwire_errors?: { index?: number }[] };

/** What an OpenAI client does with a chat stream: concatenate text, build calls by index, drop failed ones. */
function reassemble(chunks: Chunk[]): { message: Record<string, unknown>; finish_reason: string | null } {
  let content = "";
  let reasoning: string | undefined;
  let finish: string | null = null;
  const calls: { id: string; type: string; function: { name: string; arguments: string } }[] = [];
  const dropped = new Set<number>();
  for (const chunk of chunks) {
    for (const e of chunk.chatwire_errors ?? []) if (e.index !== undefined) dropped.add(e.index);
    const choice = chunk.choices[0];
    if (choice === undefined) continue;
    const d = choice.delta as { content?: string; reasoning_content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[] };
    if (d.content !== undefined) content += d.content;
    if (d.reasoning_content !== undefined) reasoning = (reasoning ?? "") + d.reasoning_content;
    for (const tc of d.tool_calls ?? []) {
      const call = (calls[tc.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
      if (tc.id !== undefined) call.id = tc.id;
      if (tc.function.name !== undefined) call.function.name = tc.function.name;
      call.function.arguments += tc.function.arguments ?? "";
    }
    if (choice.finish_reason !== null) finish = choice.finish_reason;
  }
  const kept = calls.filter((_c, i) => !dropped.has(i));
  const message: Record<string, unknown> = { role: "assistant", content: content === "" && kept.length > 0 ? null : content };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (kept.length > 0) message.tool_calls = kept;
  return { message, finish_reason: finish };
}

let template: ChatTemplate;

beforeAll(async () => {
  template = await loadTemplate("qwen3");
});

describe.each<Kind>(["llamacpp", "openai", "ollama"])("%s backend", (kind) => {
  let backend: FakeBackend;
  let server: RunningServer;

  beforeAll(async () => {
    backend = await fakeBackend(kind, { completion: COMPLETION });
    server = await startServer({ textPrompt: true, template, backend: backend.url, backendKind: kind, port: 0, idGenerator: () => CALL_ID, backendTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await server.close();
    await backend.close();
  });

  it("answers a chat completion with the parsed message, finish reason and usage", async () => {
    const r = await post(`${server.url}/v1/chat/completions`, chatBody());
    expect(r.status).toBe(200);
    const body = r.json();
    expect(body.object).toBe("chat.completion");
    expect(body.model).toBe("qwen3-test");
    expect(body.id).toMatch(/^chatcmpl-[A-Za-z0-9]{24}$/);
    expect(body.choices).toEqual([{ index: 0, message: EXPECTED_MESSAGE, finish_reason: "tool_calls", logprobs: null }]);
    expect(body.usage).toEqual({ prompt_tokens: PROMPT_TOKENS, completion_tokens: COMPLETION_TOKENS, total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS });
    expect(body.chatwire_errors).toEqual([]);
  });

  it("sends the backend the rendered prompt and the mapped sampling settings", async () => {
    backend.received.length = 0;
    await post(`${server.url}/v1/chat/completions`, chatBody());
    const sent = backend.received[0];
    expect(sent).toBeDefined();
    const prompt = template.render(readJson(chatBody()));
    expect(prompt.endsWith("<|im_start|>user\nWhat's the weather in Paris?<|im_end|>\n<|im_start|>assistant\n")).toBe(true);
    expect(prompt).toContain('"default": 1.0'); // the float survived into the template's tojson
    expect(sent?.body.prompt).toBe(prompt);
    expect(sent?.body.stream).toBe(false);
    const b = sent?.body as Record<string, unknown>;
    if (kind === "llamacpp") {
      expect(sent?.path).toBe("/completion");
      expect(b).toMatchObject({ n_predict: 256, temperature: 1, top_p: 0.9, stop: ["<|im_end|>"], seed: 7 });
      expect(b.preserved_tokens).toEqual(expect.arrayContaining(["<tool_call>", "</tool_call>", "<think>", "</think>"]));
      // src/grammar's GBNF for hermes with this request's tool: calls can only be written validly.
      expect(typeof b.grammar).toBe("string");
      expect(b.grammar).toMatch(/^root ::= /m);
      expect(b.grammar).toContain('\\"get_weather\\"');
      expect(b.grammar).toContain("<tool_call>");
    } else if (kind === "openai") {
      expect(sent?.path).toBe("/v1/completions");
      expect(b).toMatchObject({ model: "qwen3-test", max_tokens: 256, temperature: 1, top_p: 0.9, stop: ["<|im_end|>"], seed: 7, skip_special_tokens: false });
      expect(b.grammar).toBeUndefined();
    } else {
      expect(sent?.path).toBe("/api/generate");
      expect(b).toMatchObject({ model: "qwen3-test", raw: true, options: { num_predict: 256, temperature: 1, top_p: 0.9, stop: ["<|im_end|>"], seed: 7 } });
    }
  });

  it("streams chunks whose reassembly equals the non-stream message", async () => {
    const whole = (await post(`${server.url}/v1/chat/completions`, chatBody())).json();
    const r = await post(`${server.url}/v1/chat/completions`, chatBody(', "stream": true, "stream_options": {"include_usage": true}'));
    expect(r.status).toBe(200);
    const events = sseEvents(r.text);
    expect(events.at(-1)?.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => e.data as Chunk);
    expect(chunks.every((c) => (c as unknown as { object: string }).object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: "assistant", content: "" });
    // The text arrives in several pieces, not as one block at the end.
    expect(chunks.filter((c) => c.choices[0]?.delta.reasoning_content !== undefined).length).toBeGreaterThan(2);
    const wholeChoice = (whole.choices as { message: unknown; finish_reason: string }[])[0];
    expect(reassemble(chunks)).toEqual({ message: wholeChoice?.message, finish_reason: wholeChoice?.finish_reason });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: whole.usage });
    expect(chunks.at(-2)?.chatwire_errors).toEqual([]);
    expect(backend.received.at(-1)?.body.stream).toBe(true);
  });

  it("answers a Responses request, whole and streamed, with the same output items", async () => {
    const whole = (await post(`${server.url}/v1/responses`, responsesBody())).json();
    expect(whole).toMatchObject({ object: "response", status: "completed", model: "qwen3-test", instructions: "Be brief.", chatwire_errors: [] });
    const strip = (items: unknown): unknown => (items as Record<string, unknown>[]).map(({ id: _id, ...rest }) => rest);
    expect(strip(whole.output)).toEqual([
      { type: "reasoning", summary: [], content: [{ type: "reasoning_text", text: "\nThe user wants the weather in Paris.\n" }] },
      { type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: "\n\nLet me check that for you.\n", annotations: [] }] },
      { type: "function_call", status: "completed", call_id: CALL_ID, name: "get_weather", arguments: '{"city": "Paris", "unit": "°C"}' },
    ]);
    expect(whole.usage).toEqual({ input_tokens: PROMPT_TOKENS, output_tokens: COMPLETION_TOKENS, total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS });
    const prompt = backend.received.at(-1)?.body.prompt as string;
    expect(prompt.startsWith("<|im_start|>system\nBe brief.")).toBe(true);

    const r = await post(`${server.url}/v1/responses`, responsesBody(', "stream": true'));
    const events = sseEvents(r.text);
    const types = events.map((e) => e.event);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(events.every((e) => (e.data as { type: string }).type === e.event)).toBe(true);
    expect(events.map((e) => (e.data as { sequence_number: number }).sequence_number)).toEqual(events.map((_e, i) => i));
    // Reassembled from the deltas, as a client would: the text of each item.
    const text = (type: string): string =>
      events
        .filter((e) => e.event === type)
        .map((e) => (e.data as { delta: string }).delta)
        .join("");
    expect(text("response.reasoning_text.delta")).toBe(EXPECTED_MESSAGE.reasoning_content);
    expect(text("response.output_text.delta")).toBe(EXPECTED_MESSAGE.content);
    expect(text("response.function_call_arguments.delta")).toBe('{"city": "Paris", "unit": "°C"}');
    const done = events.filter((e) => e.event === "response.output_item.done").map((e) => (e.data as { item: unknown }).item);
    expect(strip(done)).toEqual(strip(whole.output));
    const completed = (events.at(-1)?.data as { response: { output: unknown } }).response;
    expect(strip(completed.output)).toEqual(strip(whole.output));
  });
});

describe("errors", () => {
  let backend: FakeBackend;
  let server: RunningServer;
  const logged: string[] = [];

  beforeAll(async () => {
    backend = await fakeBackend("llamacpp", { completion: COMPLETION });
    server = await startServer({
      textPrompt: true,
      template,
      backend: backend.url,
      backendKind: "llamacpp",
      port: 0,
      idGenerator: () => CALL_ID,
      // Long enough that a loopback backend answering at once is never late on a loaded machine; the
      // 504 test's silent backend waits it out.
      backendTimeoutMs: 2000,
      maxBodyBytes: 64 * 1024,
      log: (line) => logged.push(line),
    });
    // The one start-up line for --text-prompt; after it, nothing may be logged.
    expect(logged.splice(0)).toEqual([expect.stringContaining("warning: prompts are sent as text")]);
  });
  afterAll(async () => {
    await server.close();
    await backend.close();
  });

  async function expectError(path: string, body: string, status: number, param: string | null, mentions?: string): Promise<Record<string, unknown>> {
    const r = await post(`${server.url}${path}`, body);
    expect(r.status).toBe(status);
    const error = r.json().error as Record<string, unknown>;
    expect(error).toMatchObject({ param });
    expect(typeof error.message).toBe("string");
    if (mentions !== undefined) expect(error.message).toContain(mentions);
    return error;
  }

  it("names the field of a malformed request (400)", async () => {
    await expectError("/v1/chat/completions", "{not json", 400, null, "not valid JSON");
    await expectError("/v1/chat/completions", "[1, 2]", 400, null, "JSON object");
    await expectError("/v1/chat/completions", '{"model": "m"}', 400, "messages");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "temperature": "hot"}', 400, "temperature");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "max_tokens": 0}', 400, "max_tokens");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "stop": [1]}', 400, "stop");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "n": 2}', 400, "n");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "stream": "yes"}', 400, "stream");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "wizard", "content": "hi"}]}', 400, "messages[0].role");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {}}]}', 400, "tools[0].function.name");
    await expectError("/v1/chat/completions", '{"messages": [{"role": "user", "content": "hi"}], "reasoning_calls": "drop"}', 400, "reasoning_calls");
    await expectError("/v1/responses", '{"messages": []}', 400, "input");
    await expectError("/v1/responses", '{"input": "hi", "previous_response_id": "resp_1"}', 400, "previous_response_id");
    // Nothing reached the backend, and nothing was logged as a server fault.
    expect(backend.received).toEqual([]);
    expect(logged).toEqual([]);
  });

  it("reports a template that raises on the conversation as a 400 with its message", async () => {
    const strict = templateFromConfig({
      chat_template:
        "{% for m in messages %}{% if (m.role == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{{ m.role }}: {{ m.content }}\n{% endfor %}",
    });
    const picky = await startServer({ textPrompt: true, template: strict, backend: backend.url, backendKind: "llamacpp", port: 0 });
    try {
      const r = await post(`${picky.url}/v1/chat/completions`, '{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]}');
      expect(r.status).toBe(400);
      expect(r.json().error).toMatchObject({ type: "invalid_request_error", code: "template_error", message: expect.stringContaining("roles must alternate") });
    } finally {
      await picky.close();
    }
  });

  it("refuses a body over the size limit (413)", async () => {
    const big = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(70 * 1024) }] });
    await expectError("/v1/chat/completions", big, 413, null, "larger than");
  });

  it("answers unknown routes with 404 and wrong methods with 405", async () => {
    const missing = await fetch(`${server.url}/v1/embeddings`, { signal: AbortSignal.timeout(5000) });
    expect(missing.status).toBe(404);
    const wrong = await fetch(`${server.url}/v1/chat/completions`, { signal: AbortSignal.timeout(5000) });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
  });

  it("lists the model and reports health", async () => {
    const models = (await (await fetch(`${server.url}/v1/models`, { signal: AbortSignal.timeout(5000) })).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(["chatwire"]);
    const health = (await (await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5000) })).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ status: "ok", format: "hermes", backend: "llamacpp", template: "builtin:qwen3" });
  });

  it("returns 502 with the backend's message when the backend fails", async () => {
    backend.set({ behaviour: { kind: "status", status: 500, body: '{"error": {"code": 500, "message": "the model exploded", "type": "server_error"}}' } });
    try {
      const e = await expectError("/v1/chat/completions", chatBody(), 502, null, "the model exploded");
      expect(e.type).toBe("backend_error");
      // Streaming requests fail the same way: the stream has not started when the backend refuses.
      await expectError("/v1/chat/completions", chatBody(', "stream": true'), 502, null, "the model exploded");
      await expectError("/v1/responses", responsesBody(), 502, null, "the model exploded");
    } finally {
      backend.set({ behaviour: { kind: "ok" } });
    }
  });

  it("returns 502 when the backend is down", async () => {
    const port = await deadPort();
    const down = await startServer({ textPrompt: true, template, backend: `http://127.0.0.1:${port}`, backendKind: "openai", model: "m", port: 0 });
    try {
      const r = await post(`${down.url}/v1/chat/completions`, chatBody());
      expect(r.status).toBe(502);
      expect(r.json().error).toMatchObject({ type: "backend_error", code: "backend_error" });
      expect(String((r.json().error as { message: string }).message)).toMatch(/cannot reach the backend.*ECONNREFUSED/);
      const s = await post(`${down.url}/v1/chat/completions`, chatBody(', "stream": true'));
      expect(s.status).toBe(502);
    } finally {
      await down.close();
    }
  });

  it("returns 504 when the backend does not answer in time", async () => {
    backend.set({ behaviour: { kind: "silent" } });
    try {
      const e = await expectError("/v1/chat/completions", chatBody(), 504, null, "did not answer within 2000 ms");
      expect(e.code).toBe("backend_timeout");
    } finally {
      backend.set({ behaviour: { kind: "ok" } });
    }
  });

  it("ends a stream with an error event when the backend breaks off mid-stream", async () => {
    backend.set({ behaviour: { kind: "error-mid-stream", message: "slot crashed" } });
    try {
      const r = await post(`${server.url}/v1/chat/completions`, chatBody(', "stream": true'));
      expect(r.status).toBe(200);
      const events = sseEvents(r.text);
      expect(events.at(-1)?.data).toBe("[DONE]");
      expect(events.at(-2)?.data).toMatchObject({ error: { type: "backend_error", message: expect.stringContaining("slot crashed") } });
      const rs = await post(`${server.url}/v1/responses`, responsesBody(', "stream": true'));
      const last = sseEvents(rs.text).at(-1);
      expect(last?.event).toBe("error");
      expect(last?.data).toMatchObject({ type: "error", code: "backend_error", message: expect.stringContaining("slot crashed") });
    } finally {
      backend.set({ behaviour: { kind: "ok" } });
    }
  });

  it("aborts the backend request when the client goes away", async () => {
    backend.set({ behaviour: { kind: "stall-after-first" } });
    // A long backend timeout: only the client's leaving can end the backend request here.
    const patient = await startServer({ textPrompt: true, template, backend: backend.url, backendKind: "llamacpp", port: 0, backendTimeoutMs: 60_000 });
    try {
      const before = backend.abortedRequests;
      const controller = new AbortController();
      const res = await fetch(`${patient.url}/v1/chat/completions`, { method: "POST", body: chatBody(', "stream": true'), signal: controller.signal });
      const reader = res.body?.getReader();
      await reader?.read(); // the stream has started
      controller.abort();
      await expect.poll(() => backend.abortedRequests, { timeout: 30_000 }).toBe(before + 1);
    } finally {
      backend.set({ behaviour: { kind: "ok" } });
      await patient.close();
    }
  });

  it("keeps invalid calls out of tool_calls, reports them in chatwire_errors, keeps their text", async () => {
    const bad = '<tool_call>\n{"name": "get_weather", "arguments": {"unit": "kelvin"}}\n</tool_call>';
    backend.set({ completion: bad });
    try {
      const whole = (await post(`${server.url}/v1/chat/completions`, chatBody())).json();
      const choice = (whole.choices as { message: Record<string, unknown>; finish_reason: string }[])[0];
      expect(choice?.message.tool_calls).toBeUndefined();
      expect(choice?.message.content).toContain('"unit": "kelvin"');
      expect(choice?.finish_reason).toBe("stop");
      expect(whole.chatwire_errors).toEqual([expect.objectContaining({ type: "invalid_arguments", name: "get_weather" })]);
      // Streamed, the call went out before it could be validated: the final chunk names its index.
      const r = await post(`${server.url}/v1/chat/completions`, chatBody(', "stream": true'));
      const chunks = sseEvents(r.text)
        .slice(0, -1)
        .map((e) => e.data as Chunk);
      expect(reassemble(chunks)).toEqual({ message: choice?.message, finish_reason: "stop" });
    } finally {
      backend.set({ completion: COMPLETION });
    }
  });

  it("reads reasoning_calls: a call rehearsed inside reasoning is a call by default, reasoning text with \"text\"", async () => {
    const call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>';
    backend.set({ completion: `<think>\nI will write ${call} next.\n</think>\n\n${call}` });
    try {
      const callsOf = (body: Record<string, unknown>) => (body.choices as { message: { tool_calls?: unknown[]; reasoning_content?: string } }[])[0]!.message;
      const byDefault = callsOf((await post(`${server.url}/v1/chat/completions`, chatBody())).json());
      expect(byDefault.tool_calls).toHaveLength(2);
      const whole = (await post(`${server.url}/v1/chat/completions`, chatBody(', "reasoning_calls": "text"'))).json();
      const message = callsOf(whole);
      expect(message.tool_calls).toHaveLength(1);
      expect(message.reasoning_content).toBe(`\nI will write ${call} next.\n`);
      const r = await post(`${server.url}/v1/chat/completions`, chatBody(', "reasoning_calls": "text", "stream": true'));
      const chunks = sseEvents(r.text)
        .slice(0, -1)
        .map((e) => e.data as Chunk);
      expect(reassemble(chunks)).toEqual({ message, finish_reason: "tool_calls" });
      const responses = (await post(`${server.url}/v1/responses`, responsesBody(', "reasoning_calls": "text"'))).json();
      expect((responses.output as { type: string }[]).filter((o) => o.type === "function_call")).toHaveLength(1);
    } finally {
      backend.set({ completion: COMPLETION });
    }
  });

  it("returns a repaired call (a bare call object, hermes' bare-call tolerance) with its repair in chatwire_errors, whole and streamed", async () => {
    backend.set({ completion: '{"name": "get_weather", "arguments": {"city": "Paris"}}' });
    try {
      const whole = (await post(`${server.url}/v1/chat/completions`, chatBody())).json();
      const choice = (whole.choices as { message: Record<string, unknown>; finish_reason: string }[])[0]!;
      expect(choice.message.tool_calls).toEqual([{ id: CALL_ID, type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } }]);
      expect(whole.chatwire_errors).toEqual([expect.objectContaining({ type: "repaired", repair: "bare-call", name: "get_weather", call: 0 })]);
      const r = await post(`${server.url}/v1/chat/completions`, chatBody(', "stream": true'));
      const chunks = sseEvents(r.text)
        .slice(0, -1)
        .map((e) => e.data as Chunk);
      expect(reassemble(chunks)).toEqual({ message: choice.message, finish_reason: "tool_calls" });
    } finally {
      backend.set({ completion: COMPLETION });
    }
  });

  it("reports finish_reason length when the backend ran out of tokens", async () => {
    backend.set({ completion: "The weather in Paris is", stop: "length" });
    try {
      const whole = (await post(`${server.url}/v1/chat/completions`, chatBody())).json();
      expect((whole.choices as { finish_reason: string }[])[0]?.finish_reason).toBe("length");
      const resp = (await post(`${server.url}/v1/responses`, responsesBody())).json();
      expect(resp).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    } finally {
      backend.set({ completion: COMPLETION, stop: "stop" });
    }
  });

  it("requires a model name for backends that need one", async () => {
    const nameless = await startServer({ textPrompt: true, template, backend: backend.url, backendKind: "ollama", port: 0 });
    try {
      const r = await post(`${nameless.url}/v1/chat/completions`, '{"messages": [{"role": "user", "content": "hi"}]}');
      expect(r.status).toBe(400);
      expect(r.json().error).toMatchObject({ param: "model", message: expect.stringContaining("--model") });
    } finally {
      await nameless.close();
    }
  });

  it("keeps concurrent streams apart", async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(`${server.url}/v1/chat/completions`, chatBody(', "stream": true'))));
    for (const r of answers) {
      const chunks = sseEvents(r.text)
        .slice(0, -1)
        .map((e) => e.data as Chunk);
      expect(reassemble(chunks)).toEqual({ message: EXPECTED_MESSAGE, finish_reason: "tool_calls" });
    }
  });

  it("is still healthy after all of the above", async () => {
    const r = await post(`${server.url}/v1/chat/completions`, chatBody());
    expect(r.status).toBe(200);
    expect(logged).toEqual([]);
  });
});
