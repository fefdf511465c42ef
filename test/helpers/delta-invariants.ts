/**
 * The shape rules of a delta stream, as an OpenAI client relies on them (semantics in the parse brief):
 * a call's first delta carries index, id, type and name with empty arguments; later deltas for it carry
 * only argument text; indices are opened in order; `finish_reason` and `errors` sit on the last delta
 * only; nothing is emitted empty; a streamed error names an index that was opened.
 */
import { expect } from "vitest";
import type { Delta } from "../../src/types.js";

export function expectWellFormedDeltas(deltas: readonly Delta[], label: string): void {
  expect(deltas.length, `${label}: at least the final delta`).toBeGreaterThan(0);
  const opened = new Set<number>();
  deltas.forEach((delta, i) => {
    const where = `${label}: delta ${i} ${JSON.stringify(delta)}`;
    const last = i === deltas.length - 1;
    if (!last) {
      expect(delta.finish_reason, where).toBeUndefined();
      expect(delta.errors, where).toBeUndefined();
    }
    if (delta.content !== undefined) expect(delta.content, where).not.toBe("");
    if (delta.reasoning_content !== undefined) expect(delta.reasoning_content, where).not.toBe("");
    for (const call of delta.tool_calls ?? []) {
      if (!opened.has(call.index)) {
        expect(call.index, `${where}: next index`).toBe(opened.size);
        opened.add(call.index);
        expect(call.id, where).toEqual(expect.any(String));
        expect(call.type, where).toBe("function");
        expect(call.function.name, where).toEqual(expect.any(String));
        expect(call.function.arguments ?? "", where).toBe("");
      } else {
        expect(call.id, where).toBeUndefined();
        expect(call.function.name, where).toBeUndefined();
        expect(call.function.arguments, where).toEqual(expect.any(String));
      }
    }
  });
  const final = deltas[deltas.length - 1]!;
  expect(final.finish_reason, `${label}: finish_reason on the last delta`).toMatch(/^(stop|tool_calls)$/);
  for (const issue of final.errors ?? []) {
    if (issue.index !== undefined) expect(opened.has(issue.index), `${label}: error index ${issue.index} was opened`).toBe(true);
  }
}
