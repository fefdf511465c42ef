/**
 * Issue 21: a server error that points into the request body says where, as a person finds it in the
 * text they sent: a body that is not JSON gives the line and column of the mistake, a bad field its
 * path (`param`, into a tool schema down to the wrong value) and the line and column of that value,
 * in the message and as `line`/`column` beside OpenAI's four fields. Nothing reaches the backend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/server/index.js";
import { loadTemplate } from "../src/template/index.js";
import { fakeBackend, type FakeBackend } from "./server-fakes.js";

let backend: FakeBackend;
let server: RunningServer;

beforeAll(async () => {
  backend = await fakeBackend("llamacpp", { completion: "hello" });
  server = await startServer({ template: await loadTemplate("qwen3"), backend: backend.url, backendKind: "llamacpp", port: 0, textPrompt: true, log: () => {} });
});

afterAll(async () => {
  await server.close();
  await backend.close();
});

interface ErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
  line?: number;
  column?: number;
}

async function errorFor(path: string, body: string): Promise<{ status: number; error: ErrorObject }> {
  const r = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(5000) });
  return { status: r.status, error: ((await r.json()) as { error: ErrorObject }).error };
}

/** 1-based line and column of the first occurrence of `needle` in `text`. */
function placeOf(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle);
  expect(at).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, at).split("\n");
  return { line: before.length, column: (before.at(-1) as string).length + 1 };
}

const SCHEMA_TYPO = `{
  "model": "m",
  "messages": [{"role": "user", "content": "hi"}],
  "tools": [{"type": "function", "function": {"name": "f",
    "parameters": {"type": "object", "properties": {
      "x": {"type": "strng"}
    }}}}]
}`;

describe("serve: errors say where they are in the request body", () => {
  it("a body that is not JSON: the line and column of the mistake", async () => {
    const body = '{\n  "model": "m",\n  "messages": [\n    {"role": "user", "content": "hi"},\n  ]\n}';
    for (const path of ["/v1/chat/completions", "/v1/responses", "/v1/completions", "/tokenize"]) {
      const { status, error } = await errorFor(path, body);
      expect(status).toBe(400);
      expect(error).toMatchObject({ type: "invalid_request_error", param: null, code: "invalid_json", line: 5, column: 3 });
      expect(error.message).toContain("at line 5, column 3");
    }
  });

  it("a misspelt schema type: param is the path to the value, line and column point at it, the allowed types are named", async () => {
    const { status, error } = await errorFor("/v1/chat/completions", SCHEMA_TYPO);
    expect(status).toBe(400);
    const { line, column } = placeOf(SCHEMA_TYPO, '"strng"');
    expect(error).toMatchObject({ type: "invalid_request_error", code: "invalid_request", param: "tools[0].function.parameters.properties.x.type", line, column });
    expect(error.message).toBe(
      `tools[0].function.parameters: not a valid JSON Schema: /properties/x/type: "strng" is not a JSON Schema type (allowed: "array", "boolean", "integer", "null", "number", "object", "string", or an array of them) (at line ${line}, column ${column} of the request body)`,
    );
    expect(error.message).not.toMatch(/anyOf/);
  });

  it("a bad field of a Chat Completions or Responses body: its line and column", async () => {
    const chat = '{\n  "messages": [\n    {"role": "user", "content": "hi"},\n    {"role": "wizard", "content": "x"}\n  ]\n}';
    const role = await errorFor("/v1/chat/completions", chat);
    expect(role.error).toMatchObject({ param: "messages[1].role", ...placeOf(chat, '"wizard"') });
    const hot = chat.replace('"wizard"', '"assistant"').replace("\n}", ',\n  "temperature": "hot"\n}');
    const temperature = await errorFor("/v1/chat/completions", hot);
    expect(temperature.error).toMatchObject({ param: "temperature", ...placeOf(hot, '"hot"') });
    const responses = '{"input": "hi",\n "tools": [{"type": "function", "name": "f", "parameters": {"type": "strng"}}]}';
    const flat = await errorFor("/v1/responses", responses);
    expect(flat.error).toMatchObject({ param: "tools[0].parameters.type", ...placeOf(responses, '"strng"') });
  });

  it("a missing field points at the object that lacks it", async () => {
    const body = '{"model": "m",\n "messages": [{"role": "user", "content": "hi"}],\n "tools": [\n  {"type": "function", "function": {}}]}';
    const { error } = await errorFor("/v1/chat/completions", body);
    expect(error).toMatchObject({ param: "tools[0].function.name", ...placeOf(body, "{}") });
  });

  it("keeps OpenAI's four fields alone when the error is at no place in the body", async () => {
    const { error } = await errorFor("/v1/chat/completions", "[1, 2]");
    expect(Object.keys(error).sort()).toEqual(["code", "message", "param", "type"]);
    expect(backend.received).toEqual([]);
  });
});
