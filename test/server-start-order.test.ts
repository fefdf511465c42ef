/**
 * `chatwire serve` started before its backend, as compose, Kubernetes and systemd start it: with a
 * llama-server backend and no tokenizer file, the vocabulary probe fails, the server starts anyway
 * (/health 503, requests 503 `backend_unavailable`), the probe is retried, and once the backend is up
 * the same process serves. A clean start prints no Node warning (the probe's parallel /tokenize calls
 * once added more abort listeners to one signal than Node allows without MaxListenersExceededWarning).
 * Waits are hang guards (expect.poll), never timing assertions.
 */
import { readFileSync } from "node:fs";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serveCommand } from "../src/cli/serve.js";
import type { CliIO } from "../src/cli/io.js";
import { loadTokenizer, type TokenizerJson } from "../src/tokens/index.js";
import { deadPort, fakeBackend, type FakeBackend } from "./server-fakes.js";

const tokenizerJson = JSON.parse(readFileSync(new URL("../fixtures/tokenizer/tokenizer.json", import.meta.url), "utf8")) as TokenizerJson;
const QWEN3 = new URL("../templates/qwen3.jinja", import.meta.url).pathname;
const CHAT = JSON.stringify({ messages: [{ role: "user", content: "hi" }] });

function capture(): { io: CliIO; err: () => string } {
  let stderr = "";
  return { io: { stdin: Readable.from([]), stdout: { write: () => true }, stderr: { write: (s: string) => (stderr += s) } }, err: () => stderr };
}

async function llamaServerOn(port: number): Promise<FakeBackend> {
  const vocab = await loadTokenizer(tokenizerJson);
  return fakeBackend("llamacpp", {
    port,
    completion: "Hello there.",
    routes: { "/tokenize": (b) => ({ tokens: vocab.tokenize(String(b.content), b.parse_special !== false) }) },
  });
}

const warnings: Error[] = [];
const onWarning = (w: Error): void => void warnings.push(w);
beforeEach(() => {
  warnings.length = 0;
  process.on("warning", onWarning);
});
afterEach(() => void process.off("warning", onWarning));

describe("serve with its backend down at start", () => {
  it("starts, answers 503 until the backend is up, then serves without a restart", async () => {
    const port = await deadPort();
    const backendUrl = `http://127.0.0.1:${port}`;
    const stop = new AbortController();
    const t = capture();
    const exit = serveCommand(["--template", QWEN3, "--backend", backendUrl, "--backend-kind", "llamacpp", "--port", "0", "--no-access-log"], t.io, stop.signal);
    let backend: FakeBackend | undefined;
    try {
      await expect.poll(() => t.err(), { timeout: 30_000 }).toContain("serving ");
      expect(t.err()).toMatch(/warning: the backend is not ready \(cannot reach the backend at .*\/tokenize: .*ECONNREFUSED.*\): \/health and requests answer 503/);
      const url = /at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(t.err())?.[1];
      const health = await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) });
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: "unavailable", reason: expect.stringContaining("not ready") });
      const refused = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: CHAT, signal: AbortSignal.timeout(5000) });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("backend_unavailable");

      backend = await llamaServerOn(port);
      await expect.poll(async () => (await fetch(`${url}/health`, { signal: AbortSignal.timeout(5000) })).status, { timeout: 60_000, interval: 200 }).toBe(200);
      expect(t.err()).toContain("the backend answered: prompts are sent as token ids from backend");
      const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: CHAT, signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { choices: { message: unknown }[] }).choices[0]?.message).toEqual({ role: "assistant", content: "Hello there." });
      const sent = backend.received.find((r) => r.path === "/completion")?.body.prompt;
      expect(Array.isArray(sent)).toBe(true);
    } finally {
      stop.abort();
      expect(await exit).toBe(0);
      await backend?.close();
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });

  it("prints no Node warning on a clean start that probes /tokenize", async () => {
    const backend = await llamaServerOn(0);
    const stop = new AbortController();
    const t = capture();
    const exit = serveCommand(["--template", QWEN3, "--backend", backend.url, "--backend-kind", "llamacpp", "--port", "0"], t.io, stop.signal);
    try {
      await expect.poll(() => t.err(), { timeout: 30_000 }).toContain("serving ");
      expect(t.err()).toMatch(/token ids from backend .*\/tokenize \(special tokens: <\|im_start\|> /);
      expect(t.err()).not.toContain("warning");
      // More /tokenize calls than Node's default of ten listeners: a conversation of many segments.
      const url = /at (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(t.err())?.[1];
      const messages = Array.from({ length: 8 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `turn ${i}` }));
      const res = await fetch(`${url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ messages }), signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(200);
      await res.text();
    } finally {
      stop.abort();
      expect(await exit).toBe(0);
      await backend.close();
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });
});
