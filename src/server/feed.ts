/**
 * Feeding backend text to the stream parser without starving other clients: a large piece (a 16 MB SSE
 * line, a 100 KB completion delivered whole) is pushed in slices, with a turn of the event loop between
 * them, so no request holds the process for longer than one slice's parse. The parser is linear and
 * stream == one-shot for every split, so slicing changes timing only, never the result.
 */
import type { Delta, StreamParser } from "../types.js";

/** Characters per push; about a millisecond of parsing. */
export const SLICE_CHARS = 32 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Pushes `text` and hands each slice's deltas to `take`. A text of one slice (nearly every backend
 * piece) is pushed at once and gives undefined, with no promise to wait for; a longer one gives the
 * promise of its slices.
 */
export function pushSliced(parser: StreamParser, text: string, take: (deltas: Delta[]) => void): Promise<void> | undefined {
  if (text.length <= SLICE_CHARS) {
    take(parser.push(text));
    return undefined;
  }
  return pushSlices(parser, text, take);
}

async function pushSlices(parser: StreamParser, text: string, take: (deltas: Delta[]) => void): Promise<void> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE_CHARS, text.length);
    // Keep a surrogate pair together: each slice is whole code points.
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    take(parser.push(text.slice(start, end)));
    start = end;
    await nextTurn();
  }
}
