/**
 * The completion request as it goes on the wire (src/server/backends/http-post.ts): its headers are
 * handed to Node as a flat array, and Node then adds no Host header of its own, so Host,
 * Content-Length and the caller's headers are checked here against the raw request head, byte for byte
 * where it matters (llama-server and proxies in front of it route and frame by them).
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../src/server/backends/http-post.js";
import type { Cancel } from "../src/server/backends/watchdog.js";

let server: Server;
let port: number;
const heads: string[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket: Socket) => {
    sockets.add(socket);
    let seen = Buffer.alloc(0);
    socket.on("data", (d: Buffer) => {
      seen = Buffer.concat([seen, d]);
      const end = seen.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(seen.subarray(0, end).toString("latin1"))?.[1] ?? 0);
      if (seen.length < end + 4 + length) return; // bytes, as Content-Length counts
      heads.push(seen.toString("utf8"));
      seen = Buffer.alloc(0);
      socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy(); // the client's kept-alive connections
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const never: Cancel = { aborted: false, listen: () => () => {} };

async function send(url: string, body: string): Promise<string> {
  const answer = await post(url, ["content-type", "application/json", "accept", "text/event-stream"], body, never);
  expect(answer.status).toBe(200);
  answer.body.resume();
  await new Promise((resolve) => answer.body.once("end", resolve));
  return heads[heads.length - 1] ?? "";
}

describe("the backend POST on the wire", () => {
  it("sends the path, the caller's headers, the body's length in bytes and the URL's host", async () => {
    const body = JSON.stringify({ prompt: "héllo ✓", stream: true });
    const raw = await send(`http://127.0.0.1:${port}/completion?x=1`, body);
    const [head, sent] = raw.split("\r\n\r\n");
    const lines = (head ?? "").split("\r\n");
    expect(lines[0]).toBe("POST /completion?x=1 HTTP/1.1");
    expect(lines).toContain("content-type: application/json");
    expect(lines).toContain("accept: text/event-stream");
    expect(lines).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(lines).toContain(`Host: 127.0.0.1:${port}`);
    // One Host and one length, whatever Node adds on its own.
    expect(lines.filter((l) => /^host:/i.test(l))).toHaveLength(1);
    expect(lines.filter((l) => /^content-length:/i.test(l))).toHaveLength(1);
    expect(sent).toBe(body);
  });

  it("names the host as given in the URL (localhost, not the address it resolves to)", async () => {
    const raw = await send(`http://localhost:${port}/completion`, "{}");
    expect(raw.split("\r\n")).toContain(`Host: localhost:${port}`);
  });
});
