/**
 * Inputs that once made the engine loop forever must return. Each case runs in a child process with a
 * time limit (a synchronous loop cannot be interrupted in-process), so a regression fails the test
 * instead of hanging it.
 *
 * `<function=>` (qwen3-coder): the bare `<function=` region (no end marker, start marker part of the
 * payload) found no call name and handed its whole text back, start marker included; the engine read
 * the marker again and opened the same region, forever. The engine now always keeps a region's start
 * marker, whatever the decoder hands back.
 */
import { describe, expect, it } from "vitest";
import { listFormats } from "../../src/formats/index.js";
import { runBounded } from "../helpers/bounded-child.js";

const CASES = ["<function=>", "<function=", "<function=<function=>", "x<function=>y", "<tool_call><function=></tool_call>", "<function=> <parameter=>"];

describe("inputs that used to hang return", () => {
  const ids = listFormats().map((f) => f.id);
  it.each(CASES)("%j, one-shot and streamed, in every format", (input) => {
    const script = `
      import { readFileSync } from "node:fs";
      const { parseCompletion, createStreamParser } = await import(BUNDLE);
      const { input, ids } = JSON.parse(readFileSync(0, "utf8"));
      const out = {};
      for (const id of ids) {
        const one = parseCompletion(id, input);
        const p = createStreamParser(id);
        let content = "";
        for (const ch of input) for (const d of p.push(ch)) content += d.content ?? "";
        for (const d of p.end()) content += d.content ?? "";
        out[id] = { content: one.message.content, streamed: content };
      }
      process.stdout.write(JSON.stringify(out));
    `;
    const r = runBounded(script, JSON.stringify({ input, ids }), 20_000);
    expect(r.finished, `timed out (stderr: ${r.stderr.slice(0, 500)})`).toBe(true);
    expect(r.status, r.stderr.slice(0, 2000)).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, { content: string | null; streamed: string }>;
    expect(Object.keys(out)).toEqual(ids);
  });

  it("qwen3-coder keeps `<function=>` as content", () => {
    const r = runBounded(
      `import { readFileSync } from "node:fs";
       const { parseCompletion } = await import(BUNDLE);
       process.stdout.write(JSON.stringify(parseCompletion("qwen3-coder", readFileSync(0, "utf8"))));`,
      "<function=>",
      20_000,
    );
    expect(r.finished).toBe(true);
    expect(JSON.parse(r.stdout)).toEqual({ message: { role: "assistant", content: "<function=>" }, finish_reason: "stop", errors: [] });
  });
});
