/**
 * What a team needs to deploy `chatwire serve`, against stand-in backends on loopback: the API key
 * (401 in OpenAI's shape), CORS (preflight answered), one access-log line per request, /health with
 * and without a backend probe, a graceful drain, the utility routes (/tokenize, /detokenize,
 * /apply-template), the /v1/completions pass-through, response_format and the tool grammar in each
 * engine's own field (llama-server `grammar`/`json_schema`, vLLM `structured_outputs`, SGLang
 * `ebnf`/`json_schema`).
 */
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, vocabPrompts, type PromptTokenizer, type RunningServer, type ServeOptions } from "../src/server/index.js";
import { loadTemplate, type ChatTemplate } from "../src/template/index.js";
import { loadTokenizer, type ChatTokenizer, type TokenizerJson } from "../src/tokens/index.js";
import { deadPort, fakeBackend, sseEvents, type FakeBackend, type Kind } from "./server-fakes.js";

const tokenizerJson = JSON.parse(readFileSync(new URL("../fixtures/tokenizer/tokenizer.json", import.meta.url), "utf8")) as TokenizerJson;
const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
const HI = { messages: [{ role: "user", content: "hi" }] };

let template: ChatTemplate;
let tokenizer: PromptTokenizer;
let vocab: ChatTokenizer;
beforeAll(async () => {
  template = await loadTemplate("qwen3");
  tokenizer = await vocabPrompts(tokenizerJson, "tokenizer.json fixture");
  vocab = await loadTokenizer(tokenizerJson);
});

async function serve(backend: FakeBackend, kind: Kind, extra: Partial<ServeOptions> = {}): Promise<RunningServer> {
  return startServer({ template, backend: backend.url, backendKind: kind, port: 0, model: "m", tokenizer, backendTimeoutMs: 3000, ...extra });
}

async function call(url: string, body: unknown, headers: Record<string, string> = {}, method = "POST"): Promise<{ status: number; headers: Headers; text: string; json: () => Record<string, unknown> }> {
  const init: RequestInit = { method, headers: { "content-type": "application/json", ...headers }, signal: AbortSignal.timeout(5000) };
  if (method === "POST") init.body = typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe("API key, CORS and the access log", () => {
  let backend: FakeBackend;
  let server: RunningServer;
  const access: string[] = [];
  beforeAll(async () => {
    backend = await fakeBackend("llamacpp", { completion: "Hello." });
    server = await serve(backend, "llamacpp", { apiKey: "sk-test-123", cors: ["https://app.example"], accessLog: (l) => access.push(l) });
  });
  afterAll(async () => {
    await server.close();
    await backend.close();
  });

  it("refuses requests without the right Bearer key with OpenAI's 401", async () => {
    const none = await call(`${server.url}/v1/chat/completions`, HI);
    expect(none.status).toBe(401);
    expect(none.json()).toEqual({ error: { message: expect.stringContaining("didn't provide an API key"), type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    const wrong = await call(`${server.url}/v1/chat/completions`, HI, { authorization: "Bearer sk-test-124" });
    expect(wrong.status).toBe(401);
    expect(wrong.json().error).toMatchObject({ message: "Incorrect API key provided.", code: "invalid_api_key" });
    expect((await call(`${server.url}/v1/models`, undefined, {}, "GET")).status).toBe(401);
    expect(backend.received).toEqual([]);
    const ok = await call(`${server.url}/v1/chat/completions`, HI, { authorization: "Bearer sk-test-123" });
    expect(ok.status).toBe(200);
    // Health stays open for load balancers.
    expect((await call(`${server.url}/health`, undefined, {}, "GET")).status).toBe(200);
  });

  it("answers a CORS preflight and marks answers for the allowed origin only", async () => {
    const pre = await fetch(`${server.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
      signal: AbortSignal.timeout(5000),
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
    expect(pre.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    const ok = await call(`${server.url}/v1/chat/completions`, HI, { authorization: "Bearer sk-test-123", origin: "https://app.example" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://app.example");
    const other = await call(`${server.url}/v1/chat/completions`, HI, { authorization: "Bearer sk-test-123", origin: "https://evil.example" });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("writes one access-log line per request with status, time and token counts", async () => {
    access.length = 0;
    await call(`${server.url}/v1/chat/completions`, HI, { authorization: "Bearer sk-test-123" });
    await call(`${server.url}/v1/chat/completions`, { ...HI, stream: true }, { authorization: "Bearer sk-test-123" });
    await call(`${server.url}/v1/nothing`, HI);
    await expect.poll(() => access.length, { timeout: 30_000 }).toBe(3);
    expect(access[0]).toMatch(/^POST \/v1\/chat\/completions 200 \d+\.\d+ms prompt_tokens=42 completion_tokens=17$/);
    expect(access[1]).toMatch(/^POST \/v1\/chat\/completions 200 \d+\.\d+ms prompt_tokens=42 completion_tokens=17$/);
    expect(access[2]).toMatch(/^POST \/v1\/nothing 404 \d+\.\d+ms prompt_tokens=- completion_tokens=-$/);
  });
});

describe("health, drain and connections", () => {
  it("probes the backend on /health?backend=1 (503 when it is down)", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "x", routes: { "/health": () => ({ status: "ok" }) } });
    const server = await serve(backend, "llamacpp");
    const down = await serve({ ...backend, url: `http://127.0.0.1:${await deadPort()}` }, "llamacpp");
    try {
      const plain = await call(`${server.url}/health`, undefined, {}, "GET");
      expect(plain.json()).toMatchObject({ status: "ok", backend: "llamacpp", prompt: "ids (tokenizer.json fixture)" });
      expect(backend.received).toEqual([]); // the plain health check does not touch the backend
      const probed = await call(`${server.url}/health?backend=1`, undefined, {}, "GET");
      expect(probed.status).toBe(200);
      expect(probed.json()).toMatchObject({ status: "ok", backend_health: { status: "ok", http_status: 200 } });
      expect(backend.received.map((r) => r.path)).toEqual(["/health"]);
      const dead = await call(`${down.url}/health?backend=1`, undefined, {}, "GET");
      expect(dead.status).toBe(503);
      expect(dead.json()).toMatchObject({ status: "error", backend_health: { status: "unreachable" } });
    } finally {
      await server.close();
      await down.close();
      await backend.close();
    }
  });

  it("drains on close: a stream in flight finishes, new connections are refused", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "A fairly long answer that streams in many small pieces.", pieceSize: 1 });
    const server = await serve(backend, "llamacpp");
    const streaming = call(`${server.url}/v1/chat/completions`, { ...HI, stream: true });
    await expect.poll(() => backend.received.length, { timeout: 30_000 }).toBe(1);
    const closed = server.close();
    const r = await streaming;
    expect(r.status).toBe(200);
    const events = sseEvents(r.text);
    expect(events.at(-1)?.data).toBe("[DONE]");
    const text = events.map((e) => ((e.data as { choices?: { delta: { content?: string } }[] }).choices?.[0]?.delta.content ?? "")).join("");
    expect(text).toBe("A fairly long answer that streams in many small pieces.");
    await closed;
    await expect(fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    await backend.close();
  });

  it("closes idle connections: never-used ones and keep-alive ones after an answer", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "x" });
    const server = await serve(backend, "llamacpp", { headersTimeoutMs: 300, keepAliveTimeoutMs: 200 });
    try {
      // The server closes every one of them itself (the client never does); a server that left one
      // open would leave its promise pending, and the test's own timeout fails it.
      const closedByServer = (raw: string | undefined): Promise<boolean> =>
        new Promise((resolve) => {
          const socket = connect(server.port, "127.0.0.1");
          socket.on("data", () => {});
          socket.on("close", () => resolve(true));
          if (raw !== undefined) socket.write(raw);
        });
      const idle = Array.from({ length: 40 }, () => closedByServer(undefined));
      const used = Array.from({ length: 40 }, () => closedByServer("GET /health HTTP/1.1\r\nhost: x\r\n\r\n"));
      expect(await Promise.all([...idle, ...used])).toEqual(Array(80).fill(true));
    } finally {
      await server.close();
      await backend.close();
    }
  });

  it("does not answer an HTTP/0.9-style request with 200", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "x" });
    const server = await serve(backend, "llamacpp");
    try {
      for (const raw of ["GET /health\r\n\r\n", "GET /health HTTP/0.9\r\n\r\n"]) {
        const answer = await new Promise<string>((resolve) => {
          let out = "";
          const socket = connect(server.port, "127.0.0.1");
          socket.on("data", (d) => (out += String(d)));
          socket.on("close", () => resolve(out));
          socket.write(raw);
        });
        expect(answer).toMatch(/^HTTP\/1\.1 505 /);
      }
    } finally {
      await server.close();
      await backend.close();
    }
  });

  it("refuses timeouts a timer cannot hold (2^31-1 ms at most)", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "x" });
    try {
      await expect(serve(backend, "llamacpp", { backendTimeoutMs: 9_999_999_999_000 })).rejects.toThrow(/backendTimeoutMs must be an integer number of milliseconds from 1 to 2147483647/);
      await expect(serve(backend, "llamacpp", { keepAliveTimeoutMs: 0 })).rejects.toThrow(/keepAliveTimeoutMs/);
    } finally {
      await backend.close();
    }
  });
});

describe("utility routes", () => {
  let backend: FakeBackend;
  let server: RunningServer;
  beforeAll(async () => {
    backend = await fakeBackend("openai", { completion: " world" });
    server = await serve(backend, "openai");
  });
  afterAll(async () => {
    await server.close();
    await backend.close();
  });

  it("/tokenize and /detokenize round-trip, parse_special deciding what control-token text becomes", async () => {
    const text = "hi <|im_start|>there";
    const special = (await call(`${server.url}/tokenize`, { content: text })).json() as { tokens: number[]; count: number };
    expect(special.tokens).toEqual(vocab.encode(text, { protect: "none" }));
    expect(special.tokens).toContain(3001);
    const plain = (await call(`${server.url}/tokenize`, { content: text, parse_special: false })).json() as { tokens: number[] };
    expect(plain.tokens).not.toContain(3001);
    expect(plain.tokens.length).toBeGreaterThan(special.tokens.length);
    for (const ids of [special.tokens, plain.tokens]) {
      expect((await call(`${server.url}/detokenize`, { tokens: ids })).json()).toEqual({ content: text });
    }
    const pieces = (await call(`${server.url}/tokenize`, { content: "<|im_start|>", with_pieces: true })).json();
    expect(pieces).toEqual({ tokens: [{ id: 3001, piece: "<|im_start|>" }], count: 1 });
    expect((await call(`${server.url}/tokenize`, { content: 5 })).json().error).toMatchObject({ param: "content" });
    expect((await call(`${server.url}/detokenize`, { tokens: [1, -2] })).json().error).toMatchObject({ param: "tokens" });
  });

  it("/apply-template gives the rendered prompt of a chat body", async () => {
    const body = { messages: [{ role: "user", content: "What's up?" }], tools: TOOLS };
    const r = await call(`${server.url}/apply-template`, body);
    expect(r.json()).toEqual({ prompt: template.render(body) });
    expect((await call(`${server.url}/apply-template`, { messages: "no" })).status).toBe(400);
  });

  it("passes /v1/completions through, whole and streamed, with --model's name", async () => {
    backend.received.length = 0;
    const whole = await call(`${server.url}/v1/completions`, { model: "client-name", prompt: "Hello", max_tokens: 5 });
    expect(whole.status).toBe(200);
    expect(whole.json()).toMatchObject({ object: "text_completion", choices: [{ text: " world" }] });
    expect(backend.received[0]).toEqual({ path: "/v1/completions", body: { model: "m", prompt: "Hello", max_tokens: 5 } });
    const streamed = await call(`${server.url}/v1/completions`, { prompt: "Hello", stream: true });
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const events = sseEvents(streamed.text);
    expect(events.at(-1)?.data).toBe("[DONE]");
    expect(events.map((e) => ((e.data as { choices?: { text: string }[] }).choices?.[0]?.text ?? "")).join("")).toBe(" world");
  });
});

describe("constraints in each engine's field", () => {
  const schema = { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] };
  const cases: [Kind, (b: Record<string, unknown>) => unknown, (b: Record<string, unknown>) => unknown, (b: Record<string, unknown>) => unknown][] = [
    ["llamacpp", (b) => b.grammar, (b) => b.json_schema, (b) => b.json_schema],
    ["vllm", (b) => (b.structured_outputs as { grammar?: unknown } | undefined)?.grammar, (b) => (b.structured_outputs as { json?: unknown }).json, (b) => b.structured_outputs],
    ["sglang", (b) => b.ebnf, (b) => JSON.parse(b.json_schema as string), (b) => JSON.parse(b.json_schema as string)],
  ];
  it.each(cases)("%s: the tool grammar, response_format json_schema and json_object", async (kind, grammarOf, schemaOf, objectOf) => {
    const backend = await fakeBackend(kind, { completion: '{"answer": "4"}' });
    const server = await serve(backend, kind);
    try {
      // `required`: the grammar of the whole output (under `auto` see test/server-constraints.test.ts).
      await call(`${server.url}/v1/chat/completions`, { messages: [{ role: "user", content: "weather?" }], tools: TOOLS, tool_choice: "required" });
      const grammar = grammarOf(backend.received[0]!.body);
      expect(typeof grammar).toBe("string");
      expect(grammar).toMatch(/^root ::= /m);
      expect(grammar).toContain("<tool_call>");
      const r = await call(`${server.url}/v1/chat/completions`, { messages: [{ role: "user", content: "2+2?" }], response_format: { type: "json_schema", json_schema: { name: "a", schema } } });
      expect((r.json().choices as { message: { content: string } }[])[0]?.message.content).toBe('{"answer": "4"}');
      expect(schemaOf(backend.received[1]!.body)).toEqual(schema);
      await call(`${server.url}/v1/responses`, { input: "2+2?", text: { format: { type: "json_schema", name: "a", schema } } });
      expect(schemaOf(backend.received[2]!.body)).toEqual(schema);
      await call(`${server.url}/v1/chat/completions`, { messages: [{ role: "user", content: "2+2?" }], response_format: { type: "json_object" } });
      expect(objectOf(backend.received[3]!.body)).toEqual(kind === "vllm" ? { json_object: true } : { type: "object" });
      // No tools, no response_format: nothing constrains the output.
      await call(`${server.url}/v1/chat/completions`, HI);
      expect(Object.keys(backend.received[4]!.body).filter((k) => ["grammar", "json_schema", "structured_outputs", "ebnf"].includes(k))).toEqual([]);
      const bad = await call(`${server.url}/v1/chat/completions`, { ...HI, response_format: { type: "xml" } });
      expect(bad.json().error).toMatchObject({ param: "response_format.type" });
    } finally {
      await server.close();
      await backend.close();
    }
  });

  it("the plain openai kind sends no constraint fields", async () => {
    const backend = await fakeBackend("openai", { completion: "x" });
    const server = await serve(backend, "openai");
    try {
      await call(`${server.url}/v1/chat/completions`, { messages: [{ role: "user", content: "weather?" }], tools: TOOLS, response_format: { type: "json_object" } });
      expect(Object.keys(backend.received[0]!.body).sort()).toEqual(["model", "prompt", "skip_special_tokens", "stream"]);
    } finally {
      await server.close();
      await backend.close();
    }
  });
});
