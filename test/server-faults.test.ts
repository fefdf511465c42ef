/**
 * Faults and abuse against `chatwire serve`, with stand-in backends on loopback.
 * - Backend faults: closing mid-answer, or answering JSON / SSE of another shape, is a 502 (or a final
 *   error event once a stream has started), never a 200 with a partial or empty message.
 * - Requests the server must refuse with the field named (`content: 5`).
 * - No client is blocked for more than a second by another request's completion or tool schema: the
 *   model writing `Sure. <function=>` (which once looped forever), 100 KB of repeated `<tool_call>`, a
 *   16 MB single SSE line, a `pattern` of `^(a+)+$` against 30 characters, a 40,000-value `enum`.
 *   These run the built CLI (dist/) in a child process, so a server that hangs fails the test instead
 *   of freezing the test runner; /health is polled while the hard request is in flight.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/server/index.js";
import { loadTemplate } from "../src/template/index.js";
import { fakeBackend, sseEvents, type FakeBackend, type Kind } from "./server-fakes.js";

const TOOLS = [{ type: "function", function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } }];
const ASK = { model: "m", messages: [{ role: "user", content: "Weather in Paris?" }], tools: TOOLS };

async function post(url: string, body: unknown, timeoutMs = 5000): Promise<{ status: number; text: string; json: () => Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" }, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

describe.each<Kind>(["llamacpp", "vllm", "ollama"])("backend faults (%s)", (kind) => {
  let backend: FakeBackend;
  let server: RunningServer;
  beforeAll(async () => {
    backend = await fakeBackend(kind, { completion: "The weather in Paris is sunny and warm today." });
    server = await startServer({ template: await loadTemplate("qwen3"), backend: backend.url, backendKind: kind, model: "m", port: 0, textPrompt: true, backendTimeoutMs: 3000 });
  });
  afterAll(async () => {
    await server.close();
    await backend.close();
  });
  afterEach(() => backend.set({ behaviour: { kind: "ok" } }));

  it.each(["close-mid-answer", "reset-mid-answer", "wrong-shape"] as const)("%s: 502 whole, a final error event streamed", async (fault) => {
    backend.set({ behaviour: { kind: fault } });
    const whole = await post(`${server.url}/v1/chat/completions`, ASK);
    expect(whole.status).toBe(502);
    expect(whole.json().error).toMatchObject({ type: "backend_error", code: "backend_error" });
    const resp = await post(`${server.url}/v1/responses`, { model: "m", input: "hi" });
    expect(resp.status).toBe(502);
    const chat = sseEvents((await post(`${server.url}/v1/chat/completions`, { ...ASK, stream: true })).text);
    expect(chat.at(-1)?.data).toBe("[DONE]");
    expect(chat.at(-2)?.data).toMatchObject({ error: { type: "backend_error" } });
    // No finish_reason was sent: a client cannot mistake the cut answer for a whole one.
    expect(chat.some((e) => ((e.data as { choices?: { finish_reason: unknown }[] }).choices?.[0]?.finish_reason ?? null) !== null)).toBe(false);
    const events = sseEvents((await post(`${server.url}/v1/responses`, { model: "m", input: "hi", stream: true })).text);
    expect(events.at(-1)?.event).toBe("error");
    expect(events.some((e) => e.event === "response.completed")).toBe(false);
  });

  it("says the answer broke off when the backend drops the connection mid-stream", async () => {
    backend.set({ behaviour: { kind: "reset-mid-answer" } });
    const chat = sseEvents((await post(`${server.url}/v1/chat/completions`, { ...ASK, stream: true })).text);
    expect(chat.at(-2)?.data).toMatchObject({ error: { type: "backend_error", message: expect.stringMatching(/broke off/) } });
    const whole = await post(`${server.url}/v1/chat/completions`, ASK);
    expect(whole.json().error).toMatchObject({ type: "backend_error", message: expect.stringMatching(/broke off/) });
  });

  it("stops the backend request when the client leaves while the backend is streaming, and serves the next one", async () => {
    backend.set({ behaviour: { kind: "slow" } });
    const before = backend.abortedRequests;
    const controller = new AbortController();
    const res = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ ...ASK, stream: true }), headers: { "content-type": "application/json" }, signal: controller.signal });
    const reader = res.body!.getReader();
    // Pieces are flowing (the backend writes one every 20 ms): leave in the middle of them.
    let seen = "";
    while (!seen.includes('"content":"x')) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await expect.poll(() => backend.abortedRequests, { timeout: 10_000 }).toBe(before + 1);
    backend.set({ behaviour: { kind: "ok" } });
    const next = await post(`${server.url}/v1/chat/completions`, ASK);
    expect(next.status).toBe(200);
  });
});

describe("requests refused with the field named", () => {
  it("content: 5 is invalid_request naming messages[0].content", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "x" });
    const server = await startServer({ template: await loadTemplate("qwen3"), backend: backend.url, backendKind: "llamacpp", port: 0, textPrompt: true });
    try {
      const r = await post(`${server.url}/v1/chat/completions`, { messages: [{ role: "user", content: 5 }] });
      expect(r.status).toBe(400);
      expect(r.json().error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", param: "messages[0].content" });
      expect(backend.received).toEqual([]);
    } finally {
      await server.close();
      await backend.close();
    }
  });
});

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));

/** The built CLI serving in a child process; resolves with its URL once it prints the serving line. */
async function childServer(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--text-prompt", "--no-access-log", "--timeout", "20", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 15_000);
    child.stderr?.on("data", (d) => {
      err += String(d);
      const m = / at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(err);
      if (m?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { url, child };
}

/**
 * Runs `hard` while polling /health every 50 ms; returns the hard request's result and how many health
 * polls went unanswered. A poll is given HEALTH_WAIT_MS, a hang-level bound, not a speed target: work that
 * holds the event loop that long does not end in reasonable time on any machine (an exponential regex, a
 * quadratic scan), while honest work on a 16 MB completion ends far within it even on a loaded machine.
 */
const HEALTH_WAIT_MS = 15_000;

async function whileHealthPolled<T>(url: string, hard: () => Promise<T>): Promise<{ result: T | Error; unanswered: number }> {
  let unanswered = 0;
  let running = true;
  const poll = (async () => {
    while (running) {
      try {
        await fetch(`${url}/health`, { signal: AbortSignal.timeout(HEALTH_WAIT_MS) }).then((r) => r.text());
      } catch {
        unanswered++;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  let result: T | Error;
  try {
    result = await hard();
  } catch (err) {
    result = err as Error;
  }
  running = false;
  await poll;
  return { result, unanswered };
}

describe.runIf(existsSync(CLI))("no client blocked by another request (built CLI in a child process)", () => {
  const children: ChildProcess[] = [];
  let backend: FakeBackend;
  beforeAll(async () => {
    backend = await fakeBackend("llamacpp", { completion: "" });
  });
  afterAll(async () => {
    for (const c of children) c.kill("SIGKILL");
    await backend.close();
  });

  async function check(template: string, completion: string, body: unknown, behaviour: "ok" | "one-event" = "ok"): Promise<{ status: number; json: Record<string, unknown> }> {
    backend.set({ completion, behaviour: { kind: behaviour }, pieceSize: 4096 });
    const { url, child } = await childServer(["--template", template, "--backend", backend.url, "--backend-kind", "llamacpp"]);
    children.push(child);
    const { result, unanswered } = await whileHealthPolled(url, () => post(`${url}/v1/chat/completions`, body, 60_000));
    if (result instanceof Error) throw result;
    expect(result.status).toBe(200);
    expect(unanswered).toBe(0);
    return { status: result.status, json: result.json() };
  }

  it("the model writing `Sure. <function=>` (Qwen3-Coder)", async () => {
    const { json } = await check("fixtures/templates/Qwen3-Coder.jinja", "Sure. <function=>", ASK);
    const message = (json.choices as { message: { content: string } }[])[0]!.message;
    expect(message.content).toContain("Sure.");
  });

  it("100 KB of repeated `<tool_call>`", async () => {
    const { json } = await check("qwen3", "<tool_call>".repeat(9300), ASK);
    expect((json.choices as { message: { content: string } }[])[0]!.message.content.length).toBeGreaterThan(100_000);
  });

  it("a 16 MB completion in one SSE line", async () => {
    const text = "All good. ".repeat(1_600_000);
    const { json } = await check("qwen3", text, { ...ASK, stream: false }, "one-event");
    expect((json.choices as { message: { content: string } }[])[0]!.message.content).toBe(text);
  });

  it("a tool schema pattern `^(a+)+$` against 30 characters of model output", async () => {
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } }, required: ["s"] } } }];
    const completion = `<tool_call>\n{"name": "f", "arguments": {"s": "${"a".repeat(30)}!"}}\n</tool_call>`;
    const { json } = await check("qwen3", completion, { ...ASK, tools });
    expect(json.chatwire_errors).toEqual([expect.objectContaining({ type: "invalid_arguments" })]);
  });

  it("a 40,000-value enum", async () => {
    const values = Array.from({ length: 40_000 }, (_v, i) => `v${i}`);
    const tools = [{ type: "function", function: { name: "f", parameters: { type: "object", properties: { s: { type: "string", enum: values } }, required: ["s"] } } }];
    const completion = `<tool_call>\n{"name": "f", "arguments": {"s": "v39999"}}\n</tool_call>`;
    const { json } = await check("qwen3", completion, { ...ASK, tools });
    expect((json.choices as { message: { tool_calls?: unknown[] } }[])[0]!.message.tool_calls).toHaveLength(1);
  });
});
