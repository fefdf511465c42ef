/**
 * The lexer loop's helpers (engine.ts `run`): the scans it reuses, and what a marker it found means
 * given the text around it (a region allowed only at the start of the output, a closer that counts
 * only where a line ends), decided before the engine acts on it.
 */
import type { MarkerSet, ScanResult } from "./lexer.js";
import type { MarkerTable } from "./marker-tables.js";

/**
 * The last scan of each marker set over one buffer: where it started and what it found. A region that
 * turns out not to be a call hands its text back; the next region of the same kind (`<tool_call>`
 * repeated) would scan the same text again for its end marker, which is quadratic. A scan from a later
 * position that is not past the hit has the same answer, so it is reused. Cleared when the buffer changes.
 */
export class ScanMemo {
  private readonly last = new Map<MarkerSet, { from: number; hit: ScanResult }>();

  scan(set: MarkerSet, buf: string, pos: number, final: boolean): ScanResult {
    const last = this.last.get(set);
    if (last !== undefined && last.from <= pos && (last.hit.kind === "none" || last.hit.index >= pos)) return last.hit;
    const hit = set.scan(buf, pos, final);
    this.last.set(set, { from: pos, hit });
    return hit;
  }

  clear(): void {
    this.last.clear();
  }
}

/**
 * A hit of the start-of-output table, scanned from `pos`. "late": text other than whitespace comes
 * before it, so the output has begun (regions allowed only at the start must begin at its first
 * non-whitespace character). A number: the hit opens a region that never opens at the start of the
 * output (missing-opener's "\n{", where the bare call is read instead), and its marker's text up to
 * there, before the payload, is text. Undefined: the hit means what it says.
 */
export function startOfOutputHit(buf: string, pos: number, hit: ScanResult, table: MarkerTable): "late" | number | undefined {
  if (hit.kind === "none") return undefined;
  if (buf.slice(pos, hit.index).search(/\S/) >= 0) return "late";
  const at = hit.kind === "marker" ? table.actions.get(hit.marker) : undefined;
  if (hit.kind !== "marker" || at?.kind !== "region" || at.region.notAtStart !== true) return undefined;
  const inPayload = typeof at.region.startInPayload === "number" ? at.region.startInPayload : 0;
  return hit.index + hit.marker.length - inPayload;
}

/**
 * A closer that counts only where a line ends (`fence-closer`: "```python" opens a code block), its
 * marker ending at `pos`: "hold" while the character after it has not come, "text" when that character
 * does not end the line, "closer" when a line break or the end of the output follows.
 */
export function lineEndCloser(buf: string, pos: number, final: boolean): "hold" | "text" | "closer" {
  if (pos === buf.length && !final) return "hold";
  return pos === buf.length || buf[pos] === "\n" || buf[pos] === "\r" ? "closer" : "text";
}
