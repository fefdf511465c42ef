/**
 * The backend stream framing (SSE and NDJSON) against the ways a network cuts bytes: a line end
 * `\r\n` split between chunks, a UTF-8 character split between chunks, a last event without its
 * blank line, `[DONE]`, comments and multi-line data.
 */
import { describe, expect, it } from "vitest";
import { LineReader, ndjsonReader, sseReader, type FrameReader } from "../src/server/backends/frames.js";
import { BackendError } from "../src/server/backends/types.js";

/** `bytes` cut at `cuts`, each chunk pushed in turn, then the end: the payloads, in order. */
function read(reader: FrameReader, bytes: Uint8Array, cuts: number[]): unknown[] {
  const out: unknown[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...reader.push(bytes.subarray(start, cut)));
    start = cut;
  }
  out.push(...reader.end());
  return out;
}

/** Every way of cutting `text` into two chunks gives the same result. */
function everySplit(text: string, make: () => FrameReader): unknown[][] {
  const bytes = new TextEncoder().encode(text);
  const results: unknown[][] = [];
  for (let cut = 0; cut <= bytes.length; cut++) results.push(read(make(), bytes, [cut]));
  return results;
}

describe("backend stream framing", () => {
  it("reads SSE events the same for every split point, CRLF and UTF-8 included", async () => {
    const text = ': keep-alive comment\r\ndata: {"content": "°C ☀"}\r\n\r\nevent: x\r\ndata: {"a":\r\ndata: 1}\r\n\r\ndata: [DONE]\r\n\r\ndata: {"after": "done"}\r\n\r\n';
    const expected = [{ content: "°C ☀" }, { a: 1 }];
    for (const result of everySplit(text, sseReader)) expect(result).toEqual(expected);
  });

  it("reads a last SSE event that has no blank line after it", () => {
    const result = read(sseReader(), new TextEncoder().encode('data: {"n": 1}\n\ndata: {"n": 2}'), [3]);
    expect(result).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("reads NDJSON lines the same for every split point", () => {
    const text = '{"response": "é", "done": false}\n\n{"response": "", "done": true}\r\n';
    for (const result of everySplit(text, ndjsonReader)) {
      expect(result).toEqual([{ response: "é", done: false }, { response: "", done: true }]);
    }
  });

  it("reports an event that is not JSON as a BackendError naming it, after the events before it in the same chunk", () => {
    const reader = sseReader();
    expect(reader.push(new TextEncoder().encode('data: {"n": 1}\n\ndata: <html>oops</html>\n\ndata: {"n": 3}\n\n'))).toEqual([{ n: 1 }]);
    // check() says so at once, without waiting for more of the body; end() says it again.
    expect(() => reader.check()).toThrow(BackendError);
    expect(() => reader.end()).toThrow(BackendError);
    expect(() => sseReader().push(new TextEncoder().encode("data: <html>oops</html>\n\n"))).toThrow("<html>oops</html>");
  });

  it("stops at [DONE]: nothing after it is read, and done says so", () => {
    const reader = sseReader();
    expect(reader.push(new TextEncoder().encode('data: {"n": 1}\n\ndata: [DONE]\n\ndata: {"n": 2}\n\n'))).toEqual([{ n: 1 }]);
    expect(reader.done).toBe(true);
    expect(reader.push(new TextEncoder().encode('data: {"n": 3}\n\n'))).toEqual([]);
    expect(reader.end()).toEqual([]);
  });

  it("cuts lines at every line end, a CRLF split between chunks counted once", () => {
    const lines: string[] = [];
    const reader = new LineReader();
    for (const chunk of ["a\r", "\nb\rc", "\n\nd"]) reader.push(new TextEncoder().encode(chunk), (l) => lines.push(l));
    reader.end((l) => lines.push(l));
    expect(lines).toEqual(["a", "b", "c", "", "d"]);
  });
});
