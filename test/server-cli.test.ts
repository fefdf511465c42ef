/**
 * `chatwire serve` from the command line (run in-process): argument errors are one line and exit 2;
 * a started server answers on loopback and stops cleanly. Also the prompt details the server decides:
 * a template's leading bos_token is not sent twice, and bodies over the limit are refused even when
 * they arrive without a Content-Length.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { get } from "node:http";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { run } from "../src/cli/run.js";
import { serveCommand } from "../src/cli/serve.js";
import { startServer } from "../src/server/index.js";
import { templateFromConfig } from "../src/template/index.js";
import { fakeBackend, sseEvents } from "./server-fakes.js";

function io(): { io: Parameters<typeof run>[1]; out: () => string; err: () => string } {
  let stdout = "";
  let stderr = "";
  return {
    io: { stdin: Readable.from([]), stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } },
    out: () => stdout,
    err: () => stderr,
  };
}

describe("chatwire serve (CLI)", () => {
  it.each([
    [["serve", "--template", "qwen3", "--backend-kind", "llamacpp"], "--backend URL is required"],
    [["serve", "--template", "qwen3", "--backend", "http://127.0.0.1:1"], "--backend-kind must be one of llamacpp, openai, vllm, sglang, ollama"],
    [["serve", "--template", "qwen3", "--backend", "http://127.0.0.1:1", "--backend-kind", "tgi"], 'got "tgi"'],
    [["serve", "--template", "qwen3", "--backend", "http://127.0.0.1:1", "--backend-kind", "ollama", "--port", "70000"], "--port must be an integer"],
    [["serve", "--template", "qwen3", "--backend", "http://127.0.0.1:1", "--backend-kind", "openai", "--backend-body", "[1]"], "--backend-body must be a JSON object"],
    [["serve", "--template", "qwen3", "--backend", "ftp://127.0.0.1:1", "--backend-kind", "openai", "--port", "0", "--text-prompt"], "backend must be an http(s) URL"],
    [["serve", "--backend", "http://127.0.0.1:1", "--backend-kind", "openai"], "--template SRC is required"],
  ])("%j fails with one line naming the problem", async (argv, mentions) => {
    const t = io();
    expect(await run(argv, t.io)).toBe(2);
    expect(t.out()).toBe("");
    expect(t.err()).toMatch(/^chatwire: [a-z_]+: [^\n]+\n$/);
    expect(t.err()).toContain(mentions);
  });

  it("serves until stopped, then exits 0", async () => {
    const backend = await fakeBackend("ollama", { completion: "Hello there." });
    const stop = new AbortController();
    const t = io();
    const exit = serveCommand(["--template", "qwen3", "--backend", backend.url, "--backend-kind", "ollama", "--model", "qwen3:8b", "--port", "0", "--text-prompt"], t.io, stop.signal);
    try {
      await expect.poll(() => t.err(), { timeout: 30_000 }).toContain("serving builtin:qwen3 (format hermes) at http://127.0.0.1:");
      const url = /at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(t.err())?.[1];
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        body: '{"messages": [{"role": "user", "content": "hi"}]}',
        signal: AbortSignal.timeout(5000),
      });
      const body = (await res.json()) as { model: string; choices: { message: unknown }[] };
      expect(body.choices[0]?.message).toEqual({ role: "assistant", content: "Hello there." });
      expect(body.model).toBe("qwen3:8b");
      expect(backend.received[0]?.body.model).toBe("qwen3:8b");
      const models = (await (await fetch(`${url}/v1/models`, { signal: AbortSignal.timeout(5000) })).json()) as { data: { id: string }[] };
      expect(models.data[0]?.id).toBe("qwen3:8b");
    } finally {
      stop.abort();
      expect(await exit).toBe(0);
      await backend.close();
    }
  });
});

describe("what the server sends and accepts", () => {
  const withBos = templateFromConfig({
    chat_template: "{{ bos_token }}{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}[assistant] ",
    bos_token: "<s>",
  });

  it("drops a leading bos_token (the backend adds its own) unless told to keep it", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "ok" });
    const strip = await startServer({ textPrompt: true, template: withBos, backend: backend.url, backendKind: "llamacpp", port: 0 });
    const keep = await startServer({ textPrompt: true, template: withBos, backend: backend.url, backendKind: "llamacpp", port: 0, keepBos: true });
    try {
      const body = '{"messages": [{"role": "user", "content": "<s> stays in user text"}]}';
      for (const server of [strip, keep]) {
        const res = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body, signal: AbortSignal.timeout(5000) });
        expect(res.status).toBe(200);
      }
      expect(backend.received.map((r) => r.body.prompt)).toEqual([
        "[user] <s> stays in user text\n[assistant] ",
        "<s>[user] <s> stays in user text\n[assistant] ",
      ]);
      // No tools, nothing to constrain: no grammar is sent.
      expect(backend.received.map((r) => r.body.grammar)).toEqual([undefined, undefined]);
    } finally {
      await strip.close();
      await keep.close();
      await backend.close();
    }
  });

  it("streams a completion delivered one character at a time into the same message", async () => {
    const completion = 'Sure.<tool_call>\n{"name": "f", "arguments": {"q": "naïve ☃"}}\n</tool_call>';
    const backend = await fakeBackend("openai", { completion, pieceSize: 1 });
    const server = await startServer({ textPrompt: true, template: templateFromConfig({ chat_template: "{{ messages[0].content }}<tool_call>" }), backend: backend.url, backendKind: "openai", model: "m", port: 0, idGenerator: () => "call_1" });
    try {
      const post = async (stream: boolean): Promise<string> =>
        (await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "x" }], stream }), signal: AbortSignal.timeout(5000) })).text();
      const whole = JSON.parse(await post(false)) as { choices: { message: { content: string; tool_calls: { function: { arguments: string } }[] } }[] };
      const message = whole.choices[0]?.message;
      expect(message?.content).toBe("Sure.");
      expect(message?.tool_calls[0]?.function.arguments).toBe('{"q": "naïve ☃"}');
      const events = sseEvents(await post(true)).slice(0, -1) as { data: { choices: { delta: { content?: string; tool_calls?: { function: { arguments?: string } }[] } }[] } }[];
      const content = events.map((e) => e.data.choices[0]?.delta.content ?? "").join("");
      const args = events.map((e) => e.data.choices[0]?.delta.tool_calls?.[0]?.function.arguments ?? "").join("");
      expect(content).toBe("Sure.");
      expect(args).toBe('{"q": "naïve ☃"}');
      // No partial marker ever reached the client as content.
      expect(events.some((e) => (e.data.choices[0]?.delta.content ?? "").includes("<"))).toBe(false);
    } finally {
      await server.close();
      await backend.close();
    }
  });

  it("refuses an oversized body sent without Content-Length (chunked)", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "ok" });
    const server = await startServer({ textPrompt: true, template: withBos, backend: backend.url, backendKind: "llamacpp", port: 0, maxBodyBytes: 1024 });
    try {
      const piece = new TextEncoder().encode(`{"messages": [{"role": "user", "content": "${"x".repeat(4000)}"}]}`);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(piece);
          controller.close();
        },
      });
      const res = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", body, duplex: "half", signal: AbortSignal.timeout(5000) } as RequestInit);
      expect(res.status).toBe(413);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("body_too_large");
      expect(backend.received).toEqual([]);
      // The server is fine afterwards.
      expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(5000) })).status).toBe(200);
    } finally {
      await server.close();
      await backend.close();
    }
  });
});

const CLI = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));

describe.runIf(existsSync(CLI))("chatwire serve --workers (built CLI)", () => {
  it("runs N worker processes behind one port and drains them all on SIGTERM", async () => {
    const backend = await fakeBackend("llamacpp", { completion: "ok" });
    const child = spawn(process.execPath, [CLI, "serve", "--template", "qwen3", "--backend", backend.url, "--backend-kind", "llamacpp", "--port", "0", "--text-prompt", "--workers", "2"], { stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err += String(d)));
    try {
      await expect.poll(() => err, { timeout: 30_000 }).toMatch(/ at http:\/\/127\.0\.0\.1:\d+\/v1 with 2 workers/);
      const url = / at (http:\/\/127\.0\.0\.1:\d+)\/v1 with/.exec(err)![1]!;
      // A new connection per request, so the primary deals them out to both workers.
      const pids = new Set<number>();
      for (let i = 0; i < 20 && pids.size < 2; i++) {
        const body = await new Promise<string>((resolve, reject) => {
          get(`${url}/health`, { agent: false }, (res) => {
            let text = "";
            res.on("data", (d) => (text += String(d)));
            res.on("end", () => resolve(text));
          }).on("error", reject);
        });
        pids.add((JSON.parse(body) as { pid: number }).pid);
      }
      expect(pids.size).toBe(2);
      expect(pids.has(child.pid!)).toBe(false);
      child.kill("SIGTERM");
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(0);
      for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await backend.close();
    }
  });

  it("refuses --timeout past what a timer can hold", async () => {
    const t = io();
    expect(await run(["serve", "--template", "qwen3", "--backend", "http://127.0.0.1:1", "--backend-kind", "llamacpp", "--text-prompt", "--timeout", "9999999999"], t.io)).toBe(2);
    expect(t.err()).toMatch(/^chatwire: usage: --timeout must be at most 2147483 seconds, got 9999999999\n$/);
  });
});
