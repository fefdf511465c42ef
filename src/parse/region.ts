/**
 * One call region while the engine is inside it (engine.ts): its text, its payload decoder, and the
 * calls the decoder makes of it. Open (constructor), feed (feed, took), events (handle), finish
 * (close, or the decoder's `close` event): the region then reports to its host what did not become a
 * valid call, and the host (the engine) decides where the output goes on.
 *
 * Calls are numbered, opened and counted for the whole output by one CallLedger, which all the
 * output's regions share.
 */
import type { CompiledFormat, CompiledRegion } from "./compile-format.js";
import type { ParseIssue } from "../types.js";
import { QUOTE_LENGTH, quoteStart } from "./decoder.js";
import type { DecoderContext, DecoderEvent, PayloadDecoder } from "./decoder.js";
import type { DeltaSink } from "./deltas.js";
import { validId } from "./ids.js";
import type { MarkerTable } from "./marker-tables.js";
import type { CallPolicy } from "./policy.js";
import { TextRope } from "./rope.js";
import { holdsNonFiniteNumber, validateArguments } from "./validate.js";

export type Channel = "content" | "reasoning";

/** The first piece of a long region text fed to a decoder (see feed). */
const FIRST_FEED = 256;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export interface Section {
  channel: Channel;
  /** The section's own text (markers and text) while no call in it has succeeded. */
  pending: string[];
  /** The text in `pending` that is not a marker: kept as content once a call in the section succeeds. */
  text: string[];
  valid: boolean;
  /**
   * A channel message addressed to this tool (a `calls` route): only a valid call to it makes the
   * section valid (its header protocol); `called` says one succeeded.
   */
  recipient?: string;
  called?: boolean;
}

interface CurrentCall {
  name: string;
  /** Set when the call was opened (streamed); undefined for a rejected name. */
  index?: number;
  rejected?: { type: ParseIssue["type"]; message: string };
  /** A call to one of the format's pseudo-tools (see the language's `pseudoTools`): never opened. */
  pseudo?: true;
}

/** The calls of one output: their streamed indexes, ids and headers, and how many validated. */
export class CallLedger {
  nextIndex = 0;
  validCalls = 0;

  constructor(
    readonly format: CompiledFormat,
    readonly policy: CallPolicy,
    readonly sink: DeltaSink,
    private readonly nextId: () => string,
  ) {}

  /** A call the model names: opened (its header delta streamed) if the request accepts it. */
  open(name: string, id: string | undefined): CurrentCall {
    if (this.format.pseudoTools?.includes(name) === true && !this.policy.declares(name)) return { name, pseudo: true };
    // With parallel_tool_calls false, the first call the model names is the one: a later call is
    // refused when it opens (streaming cannot wait to see whether the first one validates).
    const verdict = this.policy.accept(name, this.nextIndex);
    if (!verdict.ok) return { name, rejected: { type: verdict.type, message: verdict.message } };
    const index = this.nextIndex++;
    this.sink.callStart(index, id !== undefined && validId(this.format.idStyle, id) ? id : this.nextId(), name);
    return { name, index };
  }
}

/** What the engine does when a region is over (see Region.finish). */
export interface RegionHost {
  /** `text`: what did not become a valid call, to be kept as text (its issues are in `r.issues`). */
  regionOver(r: Region, text: string): void;
}

export class Region {
  decoder: PayloadDecoder;
  /** The region's text so far, markers included (a rope: appended per push, read when calls end). */
  readonly raw: TextRope;
  /**
   * How much of `raw` the region always keeps, whatever its decoder hands back: its start marker (or a
   * channel header). A decoder that hands back everything (`<function=>` is no call) must not make the
   * engine read the same marker again, which would open the same region forever.
   */
  private readonly floor: number;
  /** Where the payload ends in `raw`, once the end marker was appended (-1: at the end of `raw`). */
  private bodyEnd = -1;
  /** Failure messages still to be ended with a quote of the region text from a payload offset. */
  private quotes: Array<{ issue: ParseIssue; at: number }> = [];
  valid = 0;
  private calls = 0;
  /** Texts of failed calls, for when some call in the region succeeded. */
  private readonly failedRaw: string[] = [];
  readonly issues: ParseIssue[] = [];
  private current: CurrentCall | undefined = undefined;
  /** Repairs the decoder reported for the current (or next) call: kept only if that call validates. */
  private repairs: ParseIssue[] = [];
  /** The last call of the region that validated: its streamed index and name. */
  lastValid: { index: number; name: string } | undefined = undefined;

  /**
   * A region whose raw text starts with `raw`; its payload (what the decoder sees) starts at
   * `payloadAt` in that text. Decoders slice the payload from the region's raw text.
   */
  constructor(
    readonly region: CompiledRegion,
    /** The markers that mean something inside this region (looked up once, not per push). */
    readonly table: MarkerTable,
    readonly channel: Channel,
    readonly section: Section | undefined,
    raw: string,
    private readonly payloadAt: number,
    selfClosing: boolean,
    private readonly ledger: CallLedger,
    private readonly host: RegionHost,
  ) {
    const policy = ledger.policy;
    const ctx: DecoderContext = {
      toolSchema: (name) => policy.schema(name),
      selfClosing,
      tolerances: ledger.format.tolerances,
      acceptsDeclared: (name) => policy.declares(name) && policy.accept(name, ledger.nextIndex).ok,
      declaredCallsPossible: policy.declaresAny() && policy.choice.kind !== "none",
      mayNameDeclared: (prefix) => policy.acceptsNameStarting(prefix, ledger.nextIndex),
      regionText: (from, to) => this.raw.slice(payloadAt + from, payloadAt + to),
      regionPieces: (from, to) => this.raw.pieces(payloadAt + from, payloadAt + to),
    };
    this.raw = new TextRope(raw);
    this.floor = raw.length;
    this.decoder = region.decoder(ctx);
  }

  /** The model names a call (a channel header's recipient, or the decoder's `call` event). */
  openCall(name: string, id: string | undefined): void {
    this.calls++;
    this.current = this.ledger.open(name, id);
  }

  /**
   * The common push inside a call, read without the engine's loop where it can be: offered to the
   * decoder before any marker scan (pushOpaque); else, when only a tail of it may still grow into a
   * marker (`<` at the end of a push of code), that tail is held back, as the loop holds it, and the
   * text before it is offered the same way; else, when the scan finds no marker in that text, it is
   * text without markers (pushPlain, or the decoder's push). Returns the length of the tail for the
   * engine to hold (0: none), the text to read again outside the region if the region closed itself,
   * or undefined when the engine's loop must read `text` (nothing happened).
   */
  push(text: string): number | string | undefined {
    const markers = this.table.set.markers;
    return this.opaque(text, markers) ? 0 : this.pushScanned(text);
  }

  /**
   * Region.push when the decoder did not take all of `text` unscanned. Kept apart so that the common
   * push stays small enough for V8 to inline the decoder's fast path into the engine's push.
   */
  private pushScanned(text: string): number | string | undefined {
    const set = this.table.set;
    // Looked for only now: the decoder's own search (a tagged value's) turns down a push whose tail
    // may become a marker, and a tail is short, so this costs little and only on such pushes.
    const cut = set.tailStart(text);
    const s = cut < 0 ? text : text.slice(0, cut);
    const hold = text.length - s.length;
    if (s === "" || (cut >= 0 && this.opaque(s, set.markers))) return hold;
    // Most pushes of a long value hold no character that starts a marker: one native search says so.
    if ((set.first === undefined || s.indexOf(set.first) >= 0) && set.scan(s, 0).kind !== "none") return undefined;
    if (this.plain(s)) return hold;
    const rest = this.feed(s, true);
    return rest === undefined ? hold : hold === 0 ? rest : rest + text.slice(cut);
  }

  /** Region text taken by the decoder before any marker scan (see PayloadDecoder.pushOpaque). */
  private opaque(s: string, markers: readonly string[]): boolean {
    const args = this.decoder.pushOpaque?.(s, markers);
    if (args === undefined) return false;
    this.took(s, args);
    return true;
  }

  /**
   * Feeds region text to the decoder (`record`: it is also the region's own text, not a start marker
   * already recorded). Returns the text after the payload if the region closed.
   *
   * A long text (the rest of a one-shot buffer, when no end marker follows) is fed in pieces that double
   * in size: a decoder may do work in proportion to what it is pushed (join it with what it kept, scan
   * it), and a region that ends after a few characters (`<function=` repeated, a `<tool_call>` that is
   * prose) must not cost the length of everything after it. Decoders give the same events for any
   * split, so this changes nothing but the cost.
   */
  feed(s: string, record: boolean): string | undefined {
    if (s.length <= FIRST_FEED) {
      if (record) this.raw.append(s);
      return this.handle(this.decoderPush(s));
    }
    let at = 0;
    let size = FIRST_FEED;
    while (at < s.length) {
      let to = Math.min(s.length, at + size);
      // Never between the two halves of a surrogate pair (a stream never cuts there either).
      if (to < s.length && isHighSurrogate(s.charCodeAt(to - 1))) to++;
      const piece = s.slice(at, to);
      if (record) this.raw.append(piece);
      const rest = this.handle(this.decoderPush(piece));
      at = to;
      if (rest !== undefined) return at < s.length ? rest + s.slice(at) : rest;
      size *= 2;
    }
    return undefined;
  }

  /**
   * Region text taken by the decoder's fast path (inside a long value), with the same effect as feed;
   * false when the decoder did not take it (then nothing happened).
   */
  private plain(s: string): boolean {
    const plain = this.decoder.pushPlain?.(s);
    if (plain === undefined) return false;
    this.took(s, plain);
    return true;
  }

  /** Region text `s` that a decoder's fast path took, making the arguments fragment `args`. */
  private took(s: string, args: string): void {
    this.raw.append(s);
    if (args !== "" && this.current?.index !== undefined) this.ledger.sink.args(this.current.index, args);
  }

  /** The end marker (closed) or the end of the output: the decoder ends, and so does the region. */
  close(closed: boolean, endMarker: string): void {
    this.bodyEnd = this.raw.length;
    this.raw.append(endMarker);
    // A self-closing decoder cannot hand text back at the end of the output; ignore `close` here.
    this.handle(this.decoder.end(closed).filter((e) => e.kind !== "close"));
    // A misspelled end marker (`misspelled-closer`) belongs to the region's valid call; without one it
    // stays in the region's text, which is content.
    const misspelled = closed && endMarker !== "" ? this.region.misspelledEnds?.find((m) => m.closer === endMarker) : undefined;
    const last = this.lastValid;
    if (misspelled !== undefined && last !== undefined) {
      this.issues.push({ type: "repaired", repair: misspelled.repair, message: misspelled.message, text: endMarker, name: last.name, call: last.index });
    }
    this.finish();
  }

  /** Pushes region text to the decoder, then talks to the one it forwards to, if it now does. */
  private decoderPush(s: string): DecoderEvent[] {
    const events = this.decoder.push(s);
    const inner = this.decoder.forwardsTo?.();
    if (inner !== undefined) this.decoder = inner;
    return events;
  }

  private handle(events: DecoderEvent[]): string | undefined {
    let rest: string | undefined;
    for (let k = 0; k < events.length; k++) {
      const ev = events[k]!;
      switch (ev.kind) {
        case "call":
          this.openCall(ev.name, ev.id);
          break;
        case "args":
          if (this.current?.index !== undefined) this.ledger.sink.args(this.current.index, ev.text);
          break;
        case "done":
          this.onDone(ev.value, ev.raw);
          break;
        case "fail":
          this.onFail(ev);
          break;
        case "repaired":
          this.repairs.push({ type: "repaired", repair: ev.repair, message: ev.message, text: ev.text });
          break;
        case "close": {
          // The region keeps at least its start marker: the engine always moves past what it matched.
          const most = Math.max(0, this.raw.length - this.floor);
          rest = ev.rest.length > most ? ev.rest.slice(ev.rest.length - most) : ev.rest;
          // Drops the text handed back from the raw text. The rope cuts only its last pieces: slicing a
          // flat copy here would copy the rest of a one-shot buffer per region.
          this.raw.truncate(Math.max(0, this.raw.length - rest.length));
          this.finish();
          break;
        }
      }
    }
    return rest;
  }

  private onDone(value: unknown, raw: string | undefined): void {
    const call = this.current;
    this.current = undefined;
    const repairs = this.repairs;
    this.repairs = [];
    if (call === undefined) return;
    if (call.rejected) {
      this.issue({ type: call.rejected.type, message: call.rejected.message, name: call.name, text: raw ?? "" }, raw);
      return;
    }
    if (call.pseudo) {
      // Protocol, not a call: with empty arguments its markup vanishes as a valid call's does; with
      // arguments (which would be lost) it is refused like an undeclared tool, its text kept.
      if (isEmptyObject(value)) this.valid++;
      else this.issue({ type: "unknown_tool", message: `${JSON.stringify(call.name)} is the template's own pseudo-tool, written with arguments`, name: call.name, text: raw ?? "" }, raw);
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.issue({ type: "invalid_arguments", message: "the arguments are not a JSON object", name: call.name, text: raw ?? "", index: call.index! }, raw);
      return;
    }
    if (holdsNonFiniteNumber(value)) {
      this.issue({ type: "invalid_arguments", message: "the arguments hold a number too large for JSON (it reads as Infinity)", name: call.name, text: raw ?? "", index: call.index! }, raw);
      return;
    }
    const check = validateArguments(this.ledger.policy.schema(call.name), value);
    if (!check.ok) {
      this.issue({ type: "invalid_arguments", message: check.message, name: call.name, text: raw ?? "", index: call.index!, details: check.details }, raw);
      return;
    }
    this.valid++;
    this.ledger.validCalls++;
    if (call.index !== undefined) {
      this.lastValid = { index: call.index, name: call.name };
      for (const repair of repairs) this.issues.push({ ...repair, name: call.name, call: call.index });
    }
    if (this.section !== undefined && this.section.recipient === call.name) this.section.called = true;
  }

  private onFail(ev: Extract<DecoderEvent, { kind: "fail" }>): void {
    const call = this.current;
    this.current = undefined;
    this.repairs = [];
    const issue: ParseIssue = { type: call?.rejected?.type ?? ev.type, message: call?.rejected?.message ?? ev.message, text: ev.raw ?? "" };
    if (ev.at !== undefined && call?.rejected === undefined) this.quotes.push({ issue, at: ev.at });
    const name = call?.name ?? ev.name;
    if (name !== undefined) issue.name = name;
    if (call?.index !== undefined) issue.index = call.index;
    // A region that never named a call and is marked quiet is plain text, not a failed call.
    if (call === undefined && this.calls === 0 && this.region.quietIfNotCall) {
      if (ev.raw) this.failedRaw.push(ev.raw);
      return;
    }
    this.issue(issue, ev.raw);
  }

  private issue(issue: ParseIssue, raw: string | undefined): void {
    this.issues.push(issue);
    if (raw) this.failedRaw.push(raw);
  }

  /**
   * Ends failure messages with the region text they point at, now that all of it is known: the same
   * text for every split of the stream (a decoder only sees the pieces it was pushed).
   */
  private endQuotes(): void {
    const end = this.bodyEnd >= 0 ? this.bodyEnd : this.raw.length;
    for (const { issue, at } of this.quotes) {
      const from = this.payloadAt + at;
      // One character past the quote's length tells whether there is more.
      issue.message += ` ${quoteStart(this.raw.slice(from, Math.min(end, from + QUOTE_LENGTH + 1)))}`;
    }
    this.quotes = [];
  }

  /** The region is over: its issues get their texts, and the host gets the text of what failed. */
  private finish(): void {
    if (this.current !== undefined) {
      // The decoder ended without closing its call: treat it as cut off.
      this.onFail({ kind: "fail", type: "truncated", message: "the call was cut off before it ended" });
    }
    // The region's whole text is only built when something did not become a valid call.
    if (this.valid === 0 && this.issues.length === 1) this.issues[0]!.text = this.raw.toString();
    this.endQuotes();
    // A failure that names no text of its own is about the region's text, when all of it stays content;
    // beside a valid call it is not (`[f(a=1), (` : the `(` and what follows went back to be read again).
    for (const issue of this.issues) if (issue.text === "" && this.valid === 0) issue.text = this.raw.toString();
    this.host.regionOver(this, this.valid === 0 ? this.raw.toString() : this.failedRaw.join(""));
  }
}

function isEmptyObject(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}
