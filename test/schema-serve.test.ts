/**
 * Issue 11: an uncompilable tool schema is a request error in `serve` too (400, `param` naming the
 * field), and the backend is never called for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/server/index.js";
import { loadTemplate } from "../src/index.js";
import { fakeBackend, type FakeBackend } from "./server-fakes.js";

let backend: FakeBackend;
let server: RunningServer;

beforeAll(async () => {
  backend = await fakeBackend("llamacpp", { completion: "hello" });
  server = await startServer({ template: await loadTemplate("qwen3"), backend: backend.url, backendKind: "llamacpp", port: 0, textPrompt: true });
});

afterAll(async () => {
  await server.close();
  await backend.close();
});

describe("serve and tool schemas", () => {
  it("answers 400 naming tools[1].function.parameters.properties.n.type for a misspelt type, without calling the backend", async () => {
    const body = {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      tools: [
        { type: "function", function: { name: "ok", parameters: { type: "object" } } },
        { type: "function", function: { name: "bad", parameters: { type: "object", properties: { n: { type: "integr" } } } } },
      ],
    };
    const r = await fetch(`${server.url}/v1/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(r.status).toBe(400);
    const json = (await r.json()) as { error: { type: string; param: string; message: string } };
    expect(json.error.type).toBe("invalid_request_error");
    expect(json.error.param).toBe("tools[1].function.parameters.properties.n.type");
    expect(json.error.message).toMatch(/not a valid JSON Schema/);
    expect(backend.received).toHaveLength(0);
  });
});
