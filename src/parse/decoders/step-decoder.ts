/**
 * The skeleton the tagged, xml-calls and call-list decoders share: text that arrives in pushes is read
 * by a step machine (`run`) from where the last push stopped; what it cannot decide yet (a partial
 * tag, a newline that may be stripped) is kept and read again with the next push. Events are queued and
 * handed out per push. Once closed (the region ended, or a region without end marker reported
 * `close`), the decoder ignores further text.
 *
 * `seen` addresses everything pushed so far by offset and `origin` is the offset of the first character
 * of the text `run` reads, so a decoder can remember where a call's text starts and slice it once when
 * the call ends, instead of collecting a piece of it per push.
 */
import { NO_EVENTS } from "../decoder.js";
import type { DecoderContext, DecoderEvent, PayloadDecoder } from "../decoder.js";
import { SeenText } from "./seen-text.js";

export abstract class StepDecoder<State extends string> implements PayloadDecoder {
  /** Where the step machine is; "closed" once the region ended (or `close` was called). */
  protected state: State | "closed";
  /** Events queued for the push in progress; NO_EVENTS (shared) until the first one. */
  protected events: DecoderEvent[] = NO_EVENTS;
  protected readonly seen: SeenText;
  /** The offset (in `seen`) of `s[0]` for the `run` in progress. */
  protected origin = 0;
  private pending = "";

  constructor(regionText: DecoderContext["regionText"] | undefined, initial: State) {
    this.seen = new SeenText(regionText);
    this.state = initial;
  }

  /** Reads `s` from its start; returns where it stopped (the rest is kept for the next push). */
  protected abstract run(s: string, final: boolean): number;
  /** The region ended: `rest` is the text still kept; `closed` as in PayloadDecoder.end. */
  protected abstract finish(rest: string, closed: boolean): void;

  /** A method, so that TypeScript does not narrow the state across the calls that change it. */
  protected isClosed(): boolean {
    return this.state === "closed";
  }

  protected close(): void {
    this.state = "closed";
  }

  push(text: string): DecoderEvent[] {
    if (this.isClosed()) return NO_EVENTS;
    this.seen.begin(text);
    const s = this.pending === "" ? text : this.pending + text;
    this.origin = this.seen.total - s.length;
    const i = this.run(s, false);
    this.pending = this.isClosed() || i === s.length ? "" : s.slice(i);
    return this.take();
  }

  end(closed: boolean): DecoderEvent[] {
    if (this.isClosed()) return NO_EVENTS;
    const rest = this.pending;
    this.pending = "";
    this.origin = this.seen.total - rest.length;
    this.finish(rest, closed);
    this.close();
    return this.take();
  }

  /**
   * For a subclass's fast path, which reads a push as `run` would: the text kept from earlier pushes
   * (read first), and `keep` to set what is kept after it.
   */
  protected kept(): string {
    return this.pending;
  }

  protected keep(rest: string): void {
    this.pending = rest;
  }

  /** The events queued since the last call. */
  protected take(): DecoderEvent[] {
    const e = this.events;
    if (e.length === 0) return NO_EVENTS;
    this.events = NO_EVENTS;
    return e;
  }

  /** Queues an event (the first of a push makes an array of exactly one: no spare capacity). */
  protected emit(ev: DecoderEvent): void {
    if (this.events === NO_EVENTS) this.events = [ev];
    else this.events.push(ev);
  }
}

export function skipSpace(s: string, i: number): number {
  let j = i;
  while (j < s.length && (s[j] === " " || s[j] === "\n" || s[j] === "\t" || s[j] === "\r")) j++;
  return j;
}
