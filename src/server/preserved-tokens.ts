/**
 * The marker strings of a tool-call format (reasoning, call, section and channel markers). llama-server
 * is asked to print them (`preserved_tokens`): many are special tokens it would otherwise render as
 * nothing, and then the parser could not see the call.
 */
import type { FormatDescription } from "../formats/types.js";

export function preservedTokens(format: FormatDescription): string[] {
  const markers = new Set<string>();
  const add = (list: readonly string[] | undefined): void => list?.forEach((m) => markers.add(m));
  for (const r of format.reasoning ?? []) {
    add(r.start);
    add(r.end);
  }
  for (const r of format.regions) {
    add(r.start);
    add(r.end);
  }
  for (const s of format.sections ?? []) {
    add(s.start);
    add(s.end);
  }
  if (format.channels !== undefined) {
    add(format.channels.headerStart);
    add(format.channels.headerEnd);
    add(format.channels.bodyEnd);
  }
  // Multi-token markers (` functools[`) are ignored by the server, so sending them is harmless. A
  // one-character payload start (llama3's `{`) is ordinary text, not a marker to preserve.
  return [...markers].filter((m) => m.trim().length >= 2);
}
