/**
 * The backend stream framing (SSE and NDJSON) against the ways a network cuts bytes: a line end
 * `\r\n` split between chunks, a UTF-8 character split between chunks, a last event without its
 * blank line, `[DONE]`, comments and multi-line data.
 */
import { describe, expect, it } from "vitest";
import { lines, ndjson, sseJson } from "../src/server/backends/frames.js";
import { BackendError } from "../src/server/backends/types.js";

async function* chunksOf(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(start, cut);
    start = cut;
  }
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of source) out.push(x);
  return out;
}

/** Every way of cutting `text` into two chunks gives the same result. */
async function everySplit<T>(text: string, read: (chunks: AsyncIterable<Uint8Array>) => AsyncIterable<T>): Promise<T[][]> {
  const bytes = new TextEncoder().encode(text);
  const results: T[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) results.push(await collect(read(chunksOf(bytes, [cut]))));
  return results;
}

describe("backend stream framing", () => {
  it("reads SSE events the same for every split point, CRLF and UTF-8 included", async () => {
    const text = ': keep-alive comment\r\ndata: {"content": "°C ☀"}\r\n\r\nevent: x\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: [DONE]\r\n\r\ndata: {"after": "done"}\r\n\r\n';
    const expected = [{ content: "°C ☀" }, { a: 1 }];
    for (const result of await everySplit(text, (c) => sseJson(lines(c)))) expect(result).toEqual(expected);
  });

  it("reads a last SSE event that has no blank line after it", async () => {
    const result = await collect(sseJson(lines(chunksOf(new TextEncoder().encode('data: {"n": 1}\n\ndata: {"n": 2}'), [3]))));
    expect(result).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("reads NDJSON lines the same for every split point", async () => {
    const text = '{"response": "é", "done": false}\n\n{"response": "", "done": true}\r\n';
    for (const result of await everySplit(text, (c) => ndjson(lines(c)))) {
      expect(result).toEqual([{ response: "é", done: false }, { response: "", done: true }]);
    }
  });

  it("reports an event that is not JSON as a BackendError naming it", async () => {
    const read = collect(sseJson(lines(chunksOf(new TextEncoder().encode("data: <html>oops</html>\n\n"), []))));
    await expect(read).rejects.toBeInstanceOf(BackendError);
    await expect(read).rejects.toThrow("<html>oops</html>");
  });
});
