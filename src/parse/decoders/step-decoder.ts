/**
 * The skeleton the tagged and call-list decoders share: text that arrives in pushes is read by a step
 * machine (`run`) from where the last push stopped; what it cannot decide yet (a partial tag, a
 * newline that may be stripped) is kept and read again with the next push. Events are queued and
 * handed out per push. Once closed (the region ended, or a region without end marker reported
 * `close`), the decoder ignores further text.
 */
import type { DecoderEvent, PayloadDecoder } from "../decoder.js";

export abstract class StepDecoder implements PayloadDecoder {
  protected events: DecoderEvent[] = [];
  private pending = "";

  /** Reads `s` from its start; returns where it stopped (the rest is kept for the next push). */
  protected abstract run(s: string, final: boolean): number;
  /** The region ended: `rest` is the text still kept; `closed` as in PayloadDecoder.end. */
  protected abstract finish(rest: string, closed: boolean): void;
  protected abstract isClosed(): boolean;
  protected abstract close(): void;

  push(text: string): DecoderEvent[] {
    if (this.isClosed()) return [];
    const s = this.pending + text;
    const i = this.run(s, false);
    this.pending = this.isClosed() ? "" : s.slice(i);
    return this.take();
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.isClosed()) return [];
    const rest = this.pending;
    this.pending = "";
    this.finish(rest, closed);
    this.close();
    return this.take();
  }

  private take(): DecoderEvent[] {
    const e = this.events;
    this.events = [];
    return e;
  }
}

export function skipSpace(s: string, i: number): number {
  let j = i;
  while (j < s.length && (s[j] === " " || s[j] === "\n" || s[j] === "\t" || s[j] === "\r")) j++;
  return j;
}
